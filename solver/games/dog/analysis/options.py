"""The budgets and the seed of one dog-forest analysis (:mod:`.classify`).

Kept apart from the analysis itself so that the dog's analysis hooks can describe the budgets
without importing the searchers.

>>> AnalysisOptions().proof_max_nodes
200000
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import dataclass
from typing import Any

from solver.errors import OptionError

__all__ = [
    "CLAIRVOYANT_METHODS",
    "SEED_BITS",
    "AnalysisOptions",
    "derived_seed",
    "describe_budgets",
]

CLAIRVOYANT_METHODS = ("sampled", "exact")
"""How the clairvoyant estimate may be asked for (``AnalysisOptions.clairvoyant_method``)."""

SEED_BITS = 40
"""Derived seeds stay below 2**40: the MCTS agent multiplies its seed by about 10**6 and the
searcher wants seeds below 2**64."""


def derived_seed(seed: int, source: str, purpose: str) -> int:
    """The seed of one purpose (``"mcts"``, ``"clairvoyant"``) for one source: SHA-256 of the
    three, so a row is the same in every run and process.

    >>> derived_seed(0, "seed:3", "mcts") == derived_seed(0, "seed:3", "mcts")
    True
    """
    digest = hashlib.sha256(f"{seed}\x00{source}\x00{purpose}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (1 << SEED_BITS)


@dataclass(frozen=True)
class AnalysisOptions:
    """The budgets and the seed of one analysis (every search is bounded by one of these).

    - ``proof_max_nodes``: the positions the guaranteed-win proof search may expand.
    - ``exact_memory_mb``: the table cap of each expectimax search (adversarial, then exact).
    - ``mcts_games`` / ``mcts_iterations``: games played by the MCTS agent when exact solving does
      not fit, and simulations per decision.
    - ``clairvoyant_samples``: sampled worlds for the clairvoyant estimate;
      ``clairvoyant_max_nodes`` caps the positions stored by each world's search,
      ``clairvoyant_total_nodes`` those of all worlds.
    - ``par_max_nodes``: caps the positions stored by the par search.
    - ``par_cpsat_seconds``: past that cap, the par is asked of the rules model (CP-SAT, as
      ``forest dog route`` asks it) within this many deterministic seconds; 0: not asked.
    - ``weakest_max_nodes`` / ``weakest_games``: the skill measure's weakest level (uniform
      random play, :mod:`.skill`) is valued exactly within this many stored positions, else
      sampled over this many random games.
    - ``clairvoyant_method``: ``"sampled"`` (the default: the sampled worlds above) or
      ``"exact"`` (the share of all worlds, computed within ``clairvoyant_total_nodes`` stored
      positions, sampled when it does not fit; the row's ``clairvoyant_method`` says which).

    The module doc of :mod:`.classify` ("Default budgets") explains the defaults and their effect.
    - ``engine``: ``"kernel"``/``"reference"`` or None for the default (``$SOLVER_ENGINE``).
    - ``seed``: the root of every random draw.
    """

    exact_memory_mb: float = 32
    mcts_games: int = 100
    mcts_iterations: int = 200
    clairvoyant_samples: int = 100
    clairvoyant_max_nodes: int = 50_000
    clairvoyant_total_nodes: int = 1_000_000
    par_max_nodes: int = 150_000
    par_cpsat_seconds: float = 10.0
    proof_max_nodes: int = 200_000
    weakest_max_nodes: int = 20_000
    weakest_games: int = 10_000
    clairvoyant_method: str = "sampled"
    engine: str | None = None
    seed: int = 0

    def __post_init__(self) -> None:
        for name in ("mcts_games", "mcts_iterations", "clairvoyant_samples"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise OptionError(f"{name} must be a whole number ≥ 0, not {value!r}")
        if self.mcts_iterations < 1:
            raise OptionError(f"mcts_iterations must be at least 1, not {self.mcts_iterations}")
        for name in (
            "clairvoyant_max_nodes",
            "clairvoyant_total_nodes",
            "par_max_nodes",
            "proof_max_nodes",
            "weakest_max_nodes",
            "weakest_games",
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise OptionError(f"{name} must be a whole number ≥ 1, not {value!r}")
        cp = self.par_cpsat_seconds
        if isinstance(cp, bool) or not isinstance(cp, (int, float)) or not 0 <= cp < float("inf"):
            raise OptionError(f"par_cpsat_seconds must be a number ≥ 0, not {cp!r}")
        mb = self.exact_memory_mb
        if isinstance(mb, bool) or not isinstance(mb, (int, float)) or not 0 < mb < float("inf"):
            raise OptionError(f"exact_memory_mb must be a positive number, not {mb!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int):
            raise OptionError(f"seed must be a whole number, not {self.seed!r}")
        if self.clairvoyant_method not in CLAIRVOYANT_METHODS:
            raise OptionError(
                f"clairvoyant_method must be one of {list(CLAIRVOYANT_METHODS)}, not "
                f"{self.clairvoyant_method!r}"
            )
        if self.engine not in (None, "kernel", "reference"):
            raise OptionError(f"engine must be 'kernel', 'reference' or None, not {self.engine!r}")

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> AnalysisOptions:
        """Options from a plain dict (unknown keys are an error naming them)."""
        if not data:
            return cls()
        if not isinstance(data, dict):
            raise OptionError(f"options must be a dict, not {type(data).__name__}")
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise OptionError(f"unknown analysis options {unknown}; known: {sorted(known)}")
        return cls(**data)


def describe_budgets(options: AnalysisOptions | None = None) -> str:
    """The budgets of ``options`` (default: the defaults) as one line, for reports.

    >>> describe_budgets().split(", ")[:2]
    ['exact_memory_mb=32', 'mcts_games=100']
    """
    options = options if options is not None else AnalysisOptions()
    return ", ".join(
        f"{f.name}={getattr(options, f.name)}"
        for f in dataclasses.fields(options)
        if f.name not in ("engine", "seed", "clairvoyant_method")
    )
