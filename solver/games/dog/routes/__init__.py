"""The dog game's exact route questions: CP-SAT models with brute-force twins.

:func:`par` and :func:`hindsight` are the CP-SAT rules model (:mod:`.cpsat`: the constraints in
:mod:`.rules_model`, the forest's static geometry in :mod:`.geometry`); :func:`par_graph` /
:func:`hindsight_graph` the CP-SAT model over the engine's state graph and
:func:`par_brute_force` / :func:`hindsight_brute_force` the breadth-first twins (:mod:`.graph`);
constrained routes (designer conditions) are :mod:`.query`: :class:`RouteQuery`,
:func:`solve_route` and :func:`check_route`, re-exported here (issue 4's query API, usable
from Python as ``from solver.games.dog.routes import RouteQuery, solve_route``).
"""

from solver.games.dog.routes.cpsat import hindsight, par
from solver.games.dog.routes.graph import (
    RouteAnswer,
    hindsight_brute_force,
    hindsight_graph,
    par_brute_force,
    par_graph,
)
from solver.games.dog.routes.query import RouteQuery, check_route, solve_route

__all__ = [
    "RouteAnswer",
    "RouteQuery",
    "check_route",
    "hindsight",
    "hindsight_brute_force",
    "hindsight_graph",
    "par",
    "par_brute_force",
    "par_graph",
    "solve_route",
]
