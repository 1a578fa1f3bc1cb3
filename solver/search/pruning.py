"""The pruning exact search: the table behind ``expectimax(exact=True)`` on kernels that allow it.

Kernels that declare their utility range (``vtable.utility_min/max``, see ``docs/kernel-abi.md``)
with one player, or with two players and ``game.constant_sum = True`` (returns always adding up to
``utility_min + utility_max``), are solved by the compiled alpha-beta expectimax of
``solver._ext.pruning.PruningSearch`` (Star1 cut-offs at chance nodes, heuristic move ordering,
a bounds table keyed by the kernel's packed key, a replacement policy under the memory cap). It
gives the same values as the plain search (``prune=False``, the twin the tests hold it to), but it
proves a move optimal without valuing every other move exactly, so it reports:

- ``moves``: every root move with its exact value (each root child is solved on its own);
- the best move by the plain search's tie-break (value, then the faster win, then the lower id),
  computed by a second pass over the optimal moves only (``fastest``). That pass visits every
  optimal line, which in positions with many winning lines is large; it stops after
  ``FASTEST_BUDGET`` nodes and the tie is then broken by the kernel heuristic, then the lower id
  (``extra["tie_break"]`` says which). Two-player games always break ties that second way (the
  fastest-win pass is one-player).

``threads`` > 1 solves the root's children with that many workers sharing one bounds table
(``PruningSearch.values``): every worker takes the children in order, skips those already
solved and leaves one as soon as another worker solves it; inside, a worker defers a chance
outcome (other than the first) that another worker is searching, so workers following one line
part where an outcome is done. Every table entry is a proven interval, so the values do not
depend on the thread count or on timing (exact values are summed in the kernel's order); the
node counts do vary between runs. Each worker may expand up to the remaining node budget. Every
value the result needs (the root's children, the principal variation's positions) is searched by
all the workers (a single position's search calls them in past ``SOLO_NODES`` nodes); the
fastest-win pass and the tie-break's null windows run on one.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.errors import SearchBudgetError
from solver.game import CHANCE, Game, State
from solver.kernels import CompiledCount, game_of
from solver.search.exact_table import VALUE_EPS, Entry, RootReport, TableOptions

__all__ = ["FASTEST_BUDGET", "PrunedTable", "pruning_available"]

FASTEST_BUDGET = 5_000
"""Nodes the fastest-win pass may expand per query before the tie goes to the heuristic."""
SOLO_NODES = 50_000
"""With threads, a single state's value search starts on one worker and calls the others in
only past this many nodes (starting threads costs more than a small search)."""
NODES_PER_ENTRY = 2
"""The node budget: this many nodes for every entry the memory cap could hold. The table never
fails for want of room (it replaces), so the cap bounds the work instead: a search expanding more
nodes than that raises ``SearchBudgetError`` like the plain search's full table (1024 MB: about
54 million nodes, tens of seconds)."""


def pruning_available(state: State) -> bool:
    """Can ``state`` (a kernel state) be solved by the pruning search?"""
    from solver._ext.pruning import pruning_supported

    return bool(pruning_supported(game_of(state)))


class PrunedTable:
    """The :class:`~solver.search.expectimax.KernelTable` interface over the pruning search."""

    engine = "kernel"
    algorithm = "pruning"

    def __init__(
        self,
        game: Game,
        options: TableOptions,
        *,
        threads: int = 1,
        memo: str | None = None,
        hash_bits: int = 64,
        fastest_budget: int = FASTEST_BUDGET,
    ) -> None:
        from solver._ext.pruning import PruningSearch

        self.game = game
        self.options = options
        self.target = 0
        self.threads = threads
        self.fastest_budget = fastest_budget
        if memo is None:
            # chance nodes only for one player (the dog: turn starts, where its transpositions
            # are), every node for two (the duel test game: 4x fewer nodes than chance only)
            memo = "chance" if int(game.num_players()) == 1 else "all"
        self._ps = PruningSearch(
            game, options.memory_bytes, memo=memo, hash_bits=hash_bits, threads=threads
        )
        self.num_players = int(self._ps.num_players)
        low, high = self._ps.utility_range
        self._total = float(low) + float(high)  # two players: player 1's return is this less 0's
        # the fastest-win pass is one-player: two-player ties go to the heuristic at once
        self.tie_break = "fastest" if self.num_players == 1 else "heuristic"
        self.win_weighted_plies: float | None = None
        entry = int(self._ps.entry_size)
        self.node_limit = max(100_000, NODES_PER_ENTRY * options.memory_bytes // entry)

    # -- what Solution and _solve read ------------------------------------------------------------
    entries = CompiledCount("_ps", "entries")
    bytes = CompiledCount("_ps", "bytes")
    entry_bytes = CompiledCount("_ps", "entry_size")
    expanded = CompiledCount("_ps", "expanded")
    replaced = CompiledCount("_ps", "replaced")

    def set_deadline(self, deadline: float | None) -> None:
        self._ps.set_deadline(deadline)

    def stop(self) -> None:
        self._ps.stop()

    def value(self, state: State) -> float:
        return self._value_or_return(state)

    def interval(self, state: State, depth: int = -1) -> tuple[float, float]:
        lo, hi = self._ps.interval(state, depth)
        return float(lo), float(hi)

    def _values(self, value: float) -> tuple[float, ...]:
        """Every player's value from player 0's (two players: constant-sum)."""
        return (value,) if self.num_players == 1 else (value, self._total - value)

    def _choose(
        self, state: State, values: dict[int, float] | None = None
    ) -> tuple[int, float | None]:
        """The best move at a decision node and its win-weighted length (None if not computed).
        ``values`` are player 0's; player 1 (two players) picks the lowest."""
        found = (
            self._ps.fastest(state, self.fastest_budget) if self.tie_break == "fastest" else None
        )
        if found is not None:
            _value, plies, best = found
            return int(best), float(plies)
        if self.num_players == 1:
            self.tie_break = "heuristic"
        player = state.current_player()
        sign = 1.0 if player == 0 else -1.0  # the mover's order on player 0's values
        if values is None:
            # which moves are optimal: a null window at the node's value tells, and a move that
            # is not fails at once on the mover's side (no exact value needed)
            top = self.value(state)
            values = {}
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if child.is_terminal():
                    values[action] = float(child.returns()[0])
                    continue
                lo, hi = self._ps.interval(child, -1, top - VALUE_EPS, top + VALUE_EPS)
                if player == 0:
                    values[action] = top if hi > top - VALUE_EPS else float(hi)
                else:
                    values[action] = top if lo < top + VALUE_EPS else float(lo)
        top = max(sign * v for v in values.values())
        tied = [a for a in sorted(values) if sign * values[a] >= top - VALUE_EPS]

        def heuristic(action: int) -> float:
            child = state.clone()
            child.apply_action(action)
            return float(child.heuristic(player)) if hasattr(child, "heuristic") else 0.0

        return max(tied, key=lambda a: (heuristic(a), -a)), None

    def lookup(self, state: State) -> Entry | None:
        """The entry of any non-terminal state (solved on demand: the table is a cache)."""
        if state.is_terminal():
            return None
        player = state.current_player()
        value = self.value(state)
        plies: float = 0.0
        if player == CHANCE:
            best, top = -1, -1.0
            for action, p in state.chance_outcomes():
                if p > top:
                    best, top = action, p
        else:
            best, maybe = self._choose(state)
            plies = 0.0 if maybe is None else maybe
        return Entry(player, best, self._values(value), (plies,) * self.num_players, 2**31 - 1, 1.0)

    def search(self, root: State, depth_left: int) -> RootReport:
        before = self.expanded
        player = root.current_player()
        actions: list[int]
        if player == CHANCE:
            outcomes = list(root.chance_outcomes())
            actions = [a for a, _ in outcomes]
        else:
            actions = list(root.legal_actions())
        children = []
        for action in actions:
            child = root.clone()
            child.apply_action(action)
            children.append(child)
        values = self._solve_all(children)
        by_action = dict(zip(actions, values, strict=True))
        plies: float | None = None
        if player == CHANCE:
            value = sum(float(p) * by_action[a] for a, p in outcomes)
            value = self.value(root) if self.threads == 1 else value
            best = max(outcomes, key=lambda o: (o[1], -o[0]))[0]
        else:
            value = max(values) if player == 0 else min(values)
            best, plies = self._choose(root, by_action)
        self.win_weighted_plies = plies
        lengths = (0.0 if plies is None else plies,) * self.num_players
        entry = Entry(player, best, self._values(value), lengths, 2**31 - 1, 1.0)
        zeros = (0.0,) * self.num_players
        report_children = tuple(
            (a, self._values(v), zeros) for a, v in zip(actions, values, strict=True)
        )
        return RootReport(entry, report_children, self.expanded - before, 0)

    def _solve_all(self, states: Sequence[State]) -> list[float]:
        """Exact values of ``states`` (player 0's; terminal states: their return); with threads,
        every worker on the whole list (``PruningSearch.values``: one shared table)."""
        if self.threads == 1:
            return [self._value_or_return(state) for state in states]
        out: list[float | None] = [None] * len(states)
        open_ = [i for i, state in enumerate(states) if not state.is_terminal()]
        for i, state in enumerate(states):
            if state.is_terminal():
                out[i] = float(state.returns()[0])
        found = self._ps.values([states[i] for i in open_], self._budget_left())
        for i, value in zip(open_, found, strict=True):
            if value is None:
                raise self._budget_error()
            out[i] = float(value)
        return [float(v) for v in out if v is not None]

    def _budget_left(self) -> int:
        return max(0, self.node_limit - self.expanded)

    def _budget_error(self) -> SearchBudgetError:
        return SearchBudgetError(
            f"the pruning expectimax expanded more than its budget of {self.node_limit} "
            f"nodes ({NODES_PER_ENTRY} for every entry its memory cap of "
            f"{self.options.memory_bytes / 2**20:.4g} MB holds); raise the cap with "
            "memory_mb= to search further, or search less with exact=False and a depth=",
            cap_bytes=self.options.memory_bytes,
            entries=self.entries,
        )

    def _value_or_return(self, state: State) -> float:
        if state.is_terminal():
            return float(state.returns()[0])
        if self.threads == 1:
            value = self._ps.value(state, self._budget_left())
        else:
            value = self._ps.value(state, min(self._budget_left(), SOLO_NODES))
            if value is None and self._budget_left() > 0:
                # a large search: every worker on it (they part at chance nodes), the table
                # keeping what the first try proved
                value = self._ps.values([state], self._budget_left())[0]
        if value is None:
            raise self._budget_error()
        return float(value)
