"""Exact questions: CP-SAT models with brute-force twins (DESIGN.md "Exact questions")."""

from solver.exact.dog_routes import (
    RouteAnswer,
    hindsight,
    hindsight_brute_force,
    par,
    par_brute_force,
)

__all__ = ["RouteAnswer", "hindsight", "hindsight_brute_force", "par", "par_brute_force"]
