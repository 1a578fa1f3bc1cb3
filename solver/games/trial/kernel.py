"""The Trial's ``kernel`` engine: the reference rules with compiled helpers for their hot spots.

A profile of ISMCTS self-play (``bench/results/trial.md``) put the time in the rules' Python: the
deep copy behind ``clone()`` (every determinisation copies the whole state), the fame scoring
behind the leaf heuristic, and the legal-action generation (card playability, movement reach).
This engine runs exactly the reference rules (:mod:`solver.games.trial.rules`) and replaces four
functions by compiled twins from ``solver._ext.trial`` (``ext/trial.pyx``):

* ``clone()`` copies the state data with ``copy_data`` (twin of ``rules._copy``);
* the board's ``reachable`` (movement: lines, tunnels, expedition starts) is ``BoardGraph``'s
  breadth-first search over an integer adjacency table (twin of ``board.Board.reachable``);
* ``scores()``, ``returns()`` and ``heuristic()`` read every player's fame total from
  ``FameTables`` (twin of ``scoring.fame``), once per call instead of once per player;
* the game's ``playable`` (may a player resolve a card now: its conditions and its cost, asked
  for every card in hand and every encounter at each turn step) is ``PlayTables`` (twin of
  ``conditions.playable``).

Everything else (steps, effects, fights, hidden information) is the reference code itself, so the
two engines agree on every observable; ``tests/games/trial/test_compiled_*.py`` check the twins
against the reference functions over many seeded games. There is no fallback: without the
compiled module, building a :class:`KernelTrialGame` raises
:class:`~solver.errors.ExtensionMissingError` saying how to build it. This is not yet a full
kernel (the state is still the reference's dict, so compiled searchers treat these states as
Python states).

>>> game = KernelTrialGame(players=2)
>>> state = game.new_initial_state()
>>> game.engine, type(state.clone()).__name__
('kernel', 'KernelTrialState')
"""

from __future__ import annotations

import math
from types import ModuleType
from typing import Any

from solver.games.trial.board import Board
from solver.games.trial.content import Pack
from solver.games.trial.rules import HEURISTIC_SPREAD, TrialGame, TrialState
from solver.kernels import CompiledModule

__all__ = ["KernelTrialGame", "KernelTrialState", "extension_module"]

_COMPILED = CompiledModule("trial", "the Trial's compiled helpers")
_ext: ModuleType | None = _COMPILED.module
_IMPORT_ERROR = _COMPILED.error


def extension_module() -> ModuleType:
    """The compiled module ``solver._ext.trial`` (ExtensionMissingError when it is not built)."""
    return _COMPILED.get()


class KernelBoard(Board):
    """The reference board whose ``reachable`` is the compiled breadth-first search."""

    def __init__(self, pack: Pack):
        super().__init__(pack)
        self._graph = extension_module().BoardGraph(self)

    def reachable(self, origin: str, budget: int, open_tunnels: set[str]) -> dict[str, int]:
        return self._graph.reachable(origin, budget, open_tunnels)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_graph"]  # C tables: rebuilt on unpickling
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._graph = extension_module().BoardGraph(self)


def fame_tables(game: TrialGame) -> Any:
    """The compiled ``FameTables`` of ``game``'s pack: every fame value ``scoring.fame`` reads."""
    pack, comp = game.pack, game.components
    card = {cid: int(c["fame"]) for cid, c in pack.cards.items() if "fame" in c}
    item: dict[str, int] = {}
    for entry in (*pack.items, *pack.artifacts):  # pack.item(): the first entry of an id wins
        item.setdefault(entry["id"], int(entry.get("fame", 0)))
    track = comp["morality"]
    return extension_module().FameTables(
        card,
        item,
        dict(game.board.finish),
        [int(v) for v in track["fame"]],
        int(track["min"]),
        [(t["id"], int(t["fame"])) for t in comp["legendary"]],
        int(comp["first_player_fame"]),
    )


def play_tables(game: TrialGame) -> Any:
    """The compiled ``PlayTables`` of ``game``: what ``conditions.playable`` reads of the pack."""
    from solver.games.trial.schema import FOODS

    pack, board = game.pack, game.board
    return extension_module().PlayTables(
        {
            cid: (list(c.get("requires", [])), list(c.get("cost", [])))
            for cid, c in pack.cards.items()
        },
        tuple(FOODS),
        [k["id"] for k in (*pack.items, *pack.artifacts) if k.get("amphibian")],
        list(board.campsite),
        list(board.slot),
        list(board.printed_tunnels),
        dict(board.quarter),
        {t["id"]: (str(t["type"]), t.get("restored")) for t in pack.locations},
        [cid for cid, c in pack.cards.items() if "evil" in c["symbols"]],
    )


class KernelTrialGame(TrialGame):
    """The Trial with the compiled helpers (same rules, same protocol as :class:`TrialGame`)."""

    engine = "kernel"

    def __init__(self, pack: Pack | str | None = None, players: int = 4, **options: Any):
        extension_module()  # fail before any work when the module is missing
        super().__init__(pack, players, **options)
        self.board = KernelBoard(self.pack)
        self._fame = fame_tables(self)
        self._play = play_tables(self)
        self.playable = self._play.state_playable  # conditions.playable's signature, compiled

    def new_initial_state(self) -> KernelTrialState:
        return KernelTrialState.adopt(super().new_initial_state())

    def state_from_json(self, text: str) -> KernelTrialState:
        return KernelTrialState.adopt(super().state_from_json(text))


class KernelTrialState(TrialState):
    """A reference state whose copy and scoring run compiled."""

    game: KernelTrialGame

    @classmethod
    def adopt(cls, state: TrialState) -> KernelTrialState:
        """``state``'s position as a kernel state (sharing its data: ``state`` is handed over)."""
        twin = cls.__new__(cls)
        twin.__dict__.update(state.__dict__)
        return twin

    def clone(self) -> KernelTrialState:
        twin = KernelTrialState.__new__(KernelTrialState)
        twin.__dict__.update(self.__dict__)
        twin.data = extension_module().copy_data(self.data)
        return twin

    def scores(self) -> list[int]:
        return self.game._fame.totals(self.data)

    def _winners(self) -> list[int]:
        totals = self.game._fame.totals(self.data)
        keys = [(totals[p], len(me["story"])) for p, me in enumerate(self.data["players"])]
        best = max(keys)
        return [p for p in range(self.data["player_count"]) if keys[p] == best]

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.data["player_count"]
        best = self._winners()
        return [1.0 / len(best) if p in best else 0.0 for p in range(self.data["player_count"])]

    def heuristic(self, p: int) -> float:
        if self.is_terminal():
            return self.returns()[p]
        totals = self.game._fame.totals(self.data)
        top = max(totals)
        weights = [math.exp((t - top) / HEURISTIC_SPREAD) for t in totals]
        return weights[p] / sum(weights)
