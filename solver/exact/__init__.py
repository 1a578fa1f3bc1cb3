"""Exact questions: CP-SAT models with brute-force twins (DESIGN.md "Exact questions").

:func:`par` and :func:`hindsight` are the CP-SAT rules model (:mod:`solver.exact.dog_cpsat`);
:func:`par_graph` / :func:`hindsight_graph` the CP-SAT model over the engine's state graph and
:func:`par_brute_force` / :func:`hindsight_brute_force` the breadth-first twins
(:mod:`solver.exact.dog_routes`); constrained routes are :mod:`solver.exact.route_query`.
"""

from solver.exact.dog_cpsat import hindsight, par
from solver.exact.dog_routes import (
    RouteAnswer,
    hindsight_brute_force,
    hindsight_graph,
    par_brute_force,
    par_graph,
)

__all__ = [
    "RouteAnswer",
    "hindsight",
    "hindsight_brute_force",
    "hindsight_graph",
    "par",
    "par_brute_force",
    "par_graph",
]
