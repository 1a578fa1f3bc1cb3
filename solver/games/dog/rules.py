"""The dog game's reference rules: readable pure Python, the executable specification.

This module implements docs/rules/dog.md §2–8 exactly; the compiled kernel (``ext/dog.pyx``) must
agree with it on every observable, and the differential tests check that it does.

A game is a sequence of *nodes*; each is a chance node (a step roll or a shout roll) or a decision
of the single player (a step, an offer, the squirrel's edge). Everything that needs no decision
and no dice (rest, skipped turns, walled-in turns, end of turn) is applied automatically inside
:meth:`DogState.apply_action`.

Actions (ids are shared by both engines):

====  ==============================  =====================================================
id    label                           when
====  ==============================  =====================================================
0-3   ``N`` ``E`` ``S`` ``W``         a step of the move (decision)
4     ``ignore squirrel at (2,3)``    an offered distraction (decision, costs 1 curiosity)
5     ``investigate ... at (r,c)``    an offered distraction (decision, the move ends)
6-9   ``squirrel runs N`` ...         the squirrel's run when several edges are nearest
10-12 ``roll: 1 step`` ...            the step roll, read as the move's budget (chance)
13    ``shout: shrugged off``         a shout roll under the printed number (chance)
14    ``shout: -3 stamina``           a shout roll that hits (chance)
====  ==============================  =====================================================

Choices made where the rule text is silent (docs/rules/dog.md §8 lists them all):

- The step roll's chance outcomes are the *budget* after the stick, so with the stick the
  outcomes are ``roll: 1 step`` (2/3) and ``roll: 2 steps`` (1/3). Outcomes of probability zero
  are never listed.
- A shout roll that cannot be shrugged off (printed number 1) is not a chance node: the 3 stamina
  are paid at once.
- A walled-in dog (docs/rules/dog.md §8) still rolls each turn: the roll comes before the move (§3),
  and the dog then stays.
- A second stick changes nothing (the dog already carries one); the curiosity gain still applies.
- The turn counter is the turn being played; after the last turn ends without a win the state is
  terminal with ``turn == turns``.
- Outside a move, ``budget`` is 0, the valve is closed and nothing is offered, so that equal game
  positions serialise to equal JSON.

>>> from solver.games.dog.rules import DogGame
>>> from solver import puzzles
>>> game = DogGame(puzzles.load("dog/tiny-example"))
>>> state = game.new_initial_state()
>>> state.chance_outcomes()
[(10, 0.3333333333333333), (11, 0.3333333333333333), (12, 0.3333333333333333)]
>>> state.apply_action(11)
>>> [state.action_to_string(a) for a in state.legal_actions()]
['N', 'E', 'W']
"""

from __future__ import annotations

import json
from collections.abc import Callable
from enum import IntEnum
from typing import Any, TypeAlias

from solver.errors import FormatError, IllegalActionError, shortened
from solver.fields import check_state_game
from solver.files import parse_json
from solver.game import CHANCE, TERMINAL, ChildFromClone, as_action_id, legal_action_id
from solver.games.dog.forest import DELTAS, DIRECTIONS, Cell, Forest, Terrain

# -- action ids ----------------------------------------------------------------------------------
STEP_N, STEP_E, STEP_S, STEP_W = 0, 1, 2, 3
IGNORE, INVESTIGATE = 4, 5
RUN_N, RUN_E, RUN_S, RUN_W = 6, 7, 8, 9
ROLL_1, ROLL_2, ROLL_3 = 10, 11, 12
SHOUT_SHRUG, SHOUT_HIT = 13, 14
NUM_DISTINCT_ACTIONS = 15

START_STAMINA = 6
MAX_STAMINA = 6
REST_STAMINA = 3
START_CURIOSITY = 2
SHOUT_COST = 3
ROLL_SIDES = 6

# Offers are made in "row-major order" of the neighbours: N, W, E, S (docs/rules/dog.md §8).
OFFER_ORDER: tuple[str, ...] = ("N", "W", "E", "S")
SQUIRREL_RUN = 3
SCENT_RUN = 2


class Phase(IntEnum):
    """What the state waits for. The integer codes are shared with the compiled kernel."""

    ROLL = 0  # chance: the step roll
    STEP = 1  # decision: the next step of the move
    SHOUT = 2  # chance: a shout roll for arrow ``pending`` on the current cell
    OFFER = 3  # decision: the distraction beside the dog in offer slot ``pending``
    SQUIRREL = 4  # decision: which nearest edge the squirrel runs to
    OVER = 5  # terminal


PHASE_NAMES = {p: p.name.lower() for p in Phase}


def action_label(action: int) -> str:
    """A state-independent label for an action id (offers are named without their cell).

    >>> action_label(0), action_label(11), action_label(14)
    ('N', 'roll: 2 steps', 'shout: -3 stamina')
    """
    action = as_action_id(action)  # None, 1.5, "3": IllegalActionError, never a TypeError
    if STEP_N <= action <= STEP_W:
        return DIRECTIONS[action]
    if action == IGNORE:
        return "ignore"
    if action == INVESTIGATE:
        return "investigate"
    if RUN_N <= action <= RUN_W:
        return f"squirrel runs {DIRECTIONS[action - RUN_N]}"
    if ROLL_1 <= action <= ROLL_3:
        steps = action - ROLL_1 + 1
        return f"roll: {steps} step" + ("s" if steps > 1 else "")
    if action == SHOUT_SHRUG:
        return "shout: shrugged off"
    if action == SHOUT_HIT:
        return "shout: -3 stamina"
    raise IllegalActionError(
        f"{action!r} is not a dog-game action id (0..{NUM_DISTINCT_ACTIONS - 1})"
    )


class DogGame:
    """The dog game on one forest, reference engine.

    >>> from solver import puzzles
    >>> DogGame(puzzles.load("dog/tiny-example")).num_distinct_actions()
    15
    """

    name = "dog"
    engine = "reference"

    def __init__(self, forest: Forest) -> None:
        self.forest = forest
        self._distances: dict[Cell, int] | None = None

    @property
    def human_distances(self) -> dict[Cell, int]:
        """BFS steps from each cell to the human through cells that are not trees (cells that
        cannot reach the human are absent): what :meth:`DogState.heuristic` reads, as the
        kernel's ``dist`` table."""
        if self._distances is None:
            forest = self.forest
            distances = {forest.human: 0}
            frontier = [forest.human]
            while frontier:
                following = []
                for row, col in frontier:
                    for dr, dc in DELTAS.values():
                        cell = (row + dr, col + dc)
                        if cell in distances or not forest.inside(cell):
                            continue
                        if forest.terrain(cell) == Terrain.TREE:
                            continue
                        distances[cell] = distances[(row, col)] + 1
                        following.append(cell)
                frontier = following
            self._distances = distances
        return self._distances

    def new_initial_state(self) -> DogState:
        return DogState(self)

    def num_players(self) -> int:
        return 1

    def num_distinct_actions(self) -> int:
        return NUM_DISTINCT_ACTIONS

    def max_chance_outcomes(self) -> int:
        return 3

    def state_from_json(self, text: str) -> DogState:
        """Read a state written by :meth:`DogState.to_json` (for this game's forest).

        A field that breaks the rules' invariants is a :class:`FormatError` at that field's
        position in ``text``, naming it.
        """
        return DogState._from_fields(self, parse_state_json(self.forest, text))

    def __repr__(self) -> str:
        return f"DogGame(forest={self.forest.name or '<unnamed>'!r}, engine='reference')"

    def __eq__(self, other: object) -> bool:
        """Games on equal forests are one game (a solved table answers for either's states)."""
        return type(other) is type(self) and other.forest == self.forest

    def __hash__(self) -> int:
        return hash(self.forest)


class DogState(ChildFromClone):
    """One position of the dog game. See the module docstring for actions and phases."""

    def __init__(self, game: DogGame, *, _blank: bool = False) -> None:
        self.game = game
        self.forest = game.forest
        if _blank:
            return
        self.pos: Cell = self.forest.start
        self.last_left: Cell | None = None
        self.stamina = START_STAMINA
        self.curiosity = START_CURIOSITY
        self.turn = 1
        self.skip_next = False
        self.stick = False
        self.resolved: set[Cell] = set()
        self.marked: set[Cell] = {self.forest.start}
        self.budget = 0
        self.valve = False
        self.offered: set[Cell] = set()
        self.phase = Phase.ROLL
        self.pending = -1
        self.won = False
        self._begin_turn()

    # -- the protocol ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase in (Phase.ROLL, Phase.SHOUT):
            return CHANCE
        return 0

    def is_terminal(self) -> bool:
        return self.phase == Phase.OVER

    def is_chance_node(self) -> bool:
        return self.phase in (Phase.ROLL, Phase.SHOUT)

    def returns(self) -> list[float]:
        return [1.0 if self.won else 0.0]

    def heuristic(self, player: int = 0) -> float:
        """A cheap estimate of the win probability, the kernel's ``dog_heuristic`` twin (the same
        number on both engines, so MCTS plays the same configuration on either): 1 for a win, 0
        for a loss; otherwise, with ``d`` the BFS distance to the human through non-tree cells
        (unreachable: 0) and ``reach`` the steps left in this move plus the turns still to roll
        (less one for a pending skip and one for a pending rest) times a roll's expected budget
        (2, or 4/3 with the stick), ``reach² / (reach² + d²)``."""
        if self.phase == Phase.OVER:
            return 1.0 if self.won else 0.0
        d = self.game.human_distances.get(self.pos, -1)
        if d < 0:
            return 0.0
        if d == 0:
            return 1.0
        future = self.forest.turns - self.turn  # turns after this one
        if self.phase == Phase.ROLL:
            future += 1  # this turn's roll is still to come
        if self.skip_next:
            future -= 1
        if self.stamina == 0:
            future -= 1
        future = max(future, 0)
        reach = self.budget + future * ((4.0 / 3.0) if self.stick else 2.0)
        if reach <= 0.0:
            return 0.0
        return (reach * reach) / (reach * reach + float(d) * d)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase == Phase.ROLL:
            if self.stick:  # budget = max(1, steps - 1): 1-4 -> 1, 5-6 -> 2
                return [(ROLL_1, 2.0 / 3.0), (ROLL_2, 1.0 / 3.0)]
            return [(ROLL_1, 1.0 / 3.0), (ROLL_2, 1.0 / 3.0), (ROLL_3, 1.0 / 3.0)]
        if self.phase == Phase.SHOUT:
            number = self._pending_arrow_number()
            return [
                (SHOUT_SHRUG, (number - 1) / float(ROLL_SIDES)),
                (SHOUT_HIT, (ROLL_SIDES + 1 - number) / float(ROLL_SIDES)),
            ]
        return []

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase in (Phase.ROLL, Phase.SHOUT):
            return [a for a, _ in self.chance_outcomes()]
        if phase == Phase.STEP:
            return [STEP_N + i for i, d in enumerate(DIRECTIONS) if self._step_is_legal(d)]
        if phase == Phase.OFFER:
            if self.curiosity == 0 and not self.stick:
                return [INVESTIGATE]
            return [IGNORE, INVESTIGATE]
        if phase == Phase.SQUIRREL:
            return [RUN_N + DIRECTIONS.index(d) for d in self._nearest_edges(self.pos)]
        return []

    def apply_action(self, action: int) -> None:
        action = legal_action_id(self, action, self._safe_label, self._where)
        phase = self.phase
        if phase == Phase.ROLL:
            self._start_move(action - ROLL_1 + 1)
        elif phase == Phase.STEP:
            self._step(DIRECTIONS[action - STEP_N])
        elif phase == Phase.SHOUT:
            if action == SHOUT_HIT:
                self._lose_stamina(SHOUT_COST)
            self._next_shout(self.pending + 1)
        elif phase == Phase.OFFER:
            cell = self._offer_cell(self.pending)
            if action == IGNORE:
                self._lose_curiosity()
                self._offers(self.pending + 1)
            else:
                self._hop(cell)
        elif phase == Phase.SQUIRREL:
            self._squirrel_run(DIRECTIONS[action - RUN_N])

    def get_game(self) -> DogGame:
        """The game this state belongs to (as OpenSpiel's ``State.get_game()``)."""
        return self.game

    def clone(self) -> DogState:
        other = DogState(self.game, _blank=True)
        other.__dict__.update(self.__dict__)
        other.resolved = set(self.resolved)
        other.marked = set(self.marked)
        other.offered = set(self.offered)
        return other

    def action_to_string(self, action: int) -> str:
        action = as_action_id(action)  # 4.0 is no id, not the offer's "ignore"
        if action in (IGNORE, INVESTIGATE) and self.phase == Phase.OFFER:
            cell = self._offer_cell(self.pending)
            kind = self.forest.terrain(cell).label
            verb = "ignore" if action == IGNORE else "investigate"
            return f"{verb} {kind} at ({cell[0]},{cell[1]})"
        return action_label(action)

    def string_to_action(self, label: str) -> int:
        """The legal action whose label is ``label`` (case-insensitive)."""
        wanted = str(label).strip().lower()
        for action in self.legal_actions():
            if self.action_to_string(action).lower() == wanted:
                return action
        for action in self.legal_actions():  # "ignore" / "investigate" without the cell
            if action_label(action).lower() == wanted:
                return action
        labels = ", ".join(repr(self.action_to_string(a)) for a in self.legal_actions())
        raise IllegalActionError(
            f"no legal action is labelled {shortened(str(label))!r}; legal: {labels}"
        )

    def _where(self) -> str:
        """Where the game stands, for the refusal of an illegal action."""
        return (
            f"(phase {PHASE_NAMES[self.phase]}, turn {self.turn}, dog at {self.pos}); "
            f"legal: {self.legal_actions()}"
        )

    def _safe_label(self, action: int) -> str:
        try:
            return action_label(action)
        except (IllegalActionError, TypeError):
            return "not an action"

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "budget": self.budget,
            "curiosity": self.curiosity,
            "last_left": list(self.last_left) if self.last_left is not None else None,
            "marked": sorted([list(c) for c in self.marked]),
            "offered": sorted([list(c) for c in self.offered]),
            "outcome": ("win" if self.won else "loss") if self.phase == Phase.OVER else None,
            "pending": self.pending,
            "phase": PHASE_NAMES[self.phase],
            "pos": list(self.pos),
            "resolved": sorted([list(c) for c in self.resolved]),
            "skip_next": self.skip_next,
            "stamina": self.stamina,
            "stick": self.stick,
            "turn": self.turn,
            "valve": self.valve,
        }

    def to_json(self) -> str:
        """The full state as canonical JSON (equal states give equal strings)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    @classmethod
    def from_dict(cls, game: DogGame, data: dict[str, Any]) -> DogState:
        return cls._from_fields(game, _validated_fields(game.forest, data))

    @classmethod
    def _from_fields(cls, game: DogGame, fields: dict[str, Any]) -> DogState:
        state = cls(game, _blank=True)
        state.pos = fields["pos"]
        state.last_left = fields["last_left"]
        state.stamina = fields["stamina"]
        state.curiosity = fields["curiosity"]
        state.turn = fields["turn"]
        state.skip_next = fields["skip_next"]
        state.stick = fields["stick"]
        state.resolved = set(fields["resolved"])
        state.marked = set(fields["marked"])
        state.budget = fields["budget"]
        state.valve = fields["valve"]
        state.offered = set(fields["offered"])
        state.phase = fields["phase"]
        state.pending = fields["pending"]
        state.won = fields["won"]
        return state

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DogState) and other.to_json() == self.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __str__(self) -> str:
        from solver.games.dog.render import render_forest_text

        sheet = render_forest_text(
            self.forest, position=self.pos, marked=self.marked, resolved=self.resolved
        )
        status = (
            f"turn {self.turn}/{self.forest.turns}  stamina {self.stamina}  "
            f"curiosity {self.curiosity}  {'stick  ' if self.stick else ''}"
            f"{'skip next  ' if self.skip_next else ''}phase {PHASE_NAMES[self.phase]}"
        )
        if self.phase == Phase.OVER:
            status += "  (won)" if self.won else "  (lost)"
        return f"{sheet}\n{status}"

    def __repr__(self) -> str:
        return f"DogState({self.to_json()})"

    # -- geometry --------------------------------------------------------------------------------
    def _neighbour(self, cell: Cell, direction: str) -> Cell | None:
        dr, dc = DELTAS[direction]
        nxt = (cell[0] + dr, cell[1] + dc)
        if not self.forest.inside(nxt) or self.forest.terrain(nxt) == Terrain.TREE:
            return None
        return nxt

    def _is_distraction(self, cell: Cell) -> bool:
        return self.forest.terrain(cell).is_distraction and cell not in self.resolved

    def _ends_move(self, cell: Cell) -> bool:
        return cell == self.forest.human or self._is_distraction(cell)

    def _complete_move_exists(
        self, cell: Cell, left: Cell | None, budget: int, valve: bool
    ) -> bool:
        """Is there a complete move of ``budget`` steps from ``cell`` (dog rules §3)?"""
        if budget == 0:
            return True
        for direction in DIRECTIONS:
            nxt = self._neighbour(cell, direction)
            if nxt is None or (not valve and nxt == left):
                continue
            if self._ends_move(nxt) or self._complete_move_exists(nxt, cell, budget - 1, valve):
                return True
        return False

    def _step_is_legal(self, direction: str) -> bool:
        nxt = self._neighbour(self.pos, direction)
        if nxt is None or (not self.valve and nxt == self.last_left):
            return False
        return self._ends_move(nxt) or self._complete_move_exists(
            nxt, self.pos, self.budget - 1, self.valve
        )

    def _nearest_edges(self, cell: Cell) -> list[str]:
        distances = {
            "N": cell[0],
            "E": self.forest.width - 1 - cell[1],
            "S": self.forest.height - 1 - cell[0],
            "W": cell[1],
        }
        nearest = min(distances.values())
        return [d for d in DIRECTIONS if distances[d] == nearest]

    def _offer_cell(self, slot: int) -> Cell:
        dr, dc = DELTAS[OFFER_ORDER[slot]]
        return (self.pos[0] + dr, self.pos[1] + dc)

    def _pending_arrow_number(self) -> int:
        for index, number in self.forest.arrows_at(self.pos):
            if index == self.pending:
                return number
        raise AssertionError("shout phase without a pending arrow")  # pragma: no cover

    # -- costs -----------------------------------------------------------------------------------
    def _lose_stamina(self, amount: int) -> None:
        self.stamina = max(0, self.stamina - amount)

    def _lose_curiosity(self) -> None:
        if not self.stick:  # the stick gives +1 whenever curiosity would be lost: net 0
            self.curiosity = max(0, self.curiosity - 1)

    # -- the turn --------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        """Apply everything automatic at the start of turns until a roll is due or the game ends."""
        while self.phase != Phase.OVER:
            if self.skip_next:
                self.skip_next = False
            elif self.stamina == 0:
                self.stamina = REST_STAMINA
            else:
                self.phase = Phase.ROLL
                return
            self._end_turn()

    def _end_turn(self) -> None:
        self.budget = 0
        self.valve = False
        self.offered.clear()
        self.pending = -1
        if self.turn >= self.forest.turns:
            self.phase = Phase.OVER
            self.won = False
        else:
            self.turn += 1

    def _end_move(self) -> None:
        self._end_turn()
        self._begin_turn()

    def _start_move(self, budget: int) -> None:
        if self._complete_move_exists(self.pos, self.last_left, budget, valve=False):
            self.valve = False
        elif self._complete_move_exists(self.pos, None, budget, valve=True):
            self.valve = True
        else:  # walled in: the dog stays
            self._end_move()
            return
        self.budget = budget
        self.phase = Phase.STEP
        self.pending = -1

    def _win(self) -> None:
        self.won = True
        self.phase = Phase.OVER
        self.pending = -1
        self.budget = 0
        self.valve = False
        self.offered.clear()

    def _step(self, direction: str) -> None:
        nxt = self._neighbour(self.pos, direction)
        assert nxt is not None
        self.last_left = self.pos
        self.pos = nxt
        self.budget -= 1
        if nxt == self.forest.human:  # a. the human: win at once
            self._win()
            return
        if nxt in self.marked:  # b. crossing the trail
            self._lose_curiosity()
        self.marked.add(nxt)
        terrain = self.forest.terrain(nxt)  # c. terrain
        if terrain == Terrain.UNDERGROWTH:
            self._lose_stamina(1)
        elif terrain == Terrain.PUDDLE:
            self._lose_stamina(2)
        self._next_shout(0)  # d. arrows, then e./f.

    def _next_shout(self, first_index: int) -> None:
        for index, number in self.forest.arrows_at(self.pos):
            if index < first_index:
                continue
            if number == 1:  # no roll can shrug it off
                self._lose_stamina(SHOUT_COST)
                continue
            self.phase = Phase.SHOUT
            self.pending = index
            return
        self.pending = -1
        if self._is_distraction(self.pos):  # e. stepped onto a distraction
            self._investigate(self.pos)
        else:
            self._offers(0)  # f.

    def _offers(self, first_slot: int) -> None:
        for slot in range(first_slot, len(OFFER_ORDER)):
            cell = self._offer_cell(slot)
            if not self.forest.inside(cell) or not self._is_distraction(cell):
                continue
            if cell in self.offered:
                continue
            self.offered.add(cell)
            self.phase = Phase.OFFER
            self.pending = slot
            return
        self.pending = -1
        if self.budget > 0:
            self.phase = Phase.STEP
        else:
            self._end_move()

    def _hop(self, cell: Cell) -> None:
        """Investigate an offered distraction: the hop onto it (docs/rules/dog.md §5)."""
        self.last_left = self.pos
        self.pos = cell
        if cell in self.marked:
            self._lose_curiosity()
        self.marked.add(cell)
        self._investigate(cell)

    def _investigate(self, cell: Cell) -> None:
        terrain = self.forest.terrain(cell)
        self.curiosity += 2 if terrain == Terrain.DOG else 1
        self.resolved.add(cell)
        self.pending = -1
        self.budget = 0  # investigating ends the move: the rest of the budget is lost
        self.valve = False
        self.offered.clear()
        if terrain == Terrain.SQUIRREL:
            edges = self._nearest_edges(cell)
            if len(edges) > 1:
                self.phase = Phase.SQUIRREL
                return
            self._squirrel_run(edges[0])
            return
        if terrain == Terrain.DOG:
            self.skip_next = True
        elif terrain == Terrain.STICK:
            self.stick = True
        else:  # a scent trail
            direction = terrain.scent_direction
            assert direction is not None
            if self._forced_run(direction, SCENT_RUN):
                return
        self._end_move()

    def _squirrel_run(self, direction: str) -> None:
        if self._forced_run(direction, SQUIRREL_RUN):
            return
        self._lose_stamina(1)
        self.skip_next = True
        self._end_move()

    def _forced_run(self, direction: str, length: int) -> bool:
        """Run up to ``length`` cells; True when the run reached the human (the game is won)."""
        for _ in range(length):
            nxt = self._neighbour(self.pos, direction)
            if nxt is None:
                break
            self.last_left = self.pos
            self.pos = nxt
            if nxt == self.forest.human:
                self._win()
                return True
            self.marked.add(nxt)
        return False


# -- reading states back -----------------------------------------------------------------------
def _load_state_dict(text: str) -> dict[str, Any]:
    data = parse_json(text, "a JSON object (a dog state)")
    if not isinstance(data, dict):
        raise FormatError("a JSON object", line=1, column=1, found=type(data).__name__)
    check_state_game(data, "dog")
    return data


class _StateFieldError(FormatError):
    """A state field breaking an invariant; :func:`parse_state_json` moves it to its place."""

    def __init__(self, field: str, expected: str, found: Any) -> None:
        super().__init__(
            f"state field {field!r} to be {expected}", line=1, column=1, found=repr(found)
        )
        self.field = field


def _state_error(field: str, expected: str, found: Any) -> FormatError:
    return _StateFieldError(field, expected, found)


def _field_position(text: str, field: str) -> tuple[int, int]:
    """The line and column of ``"field"`` as a key in ``text`` (1, 1 if not found)."""
    at = text.find(json.dumps(field) + ":")
    if at < 0:
        at = text.find(json.dumps(field))
    if at < 0:
        return 1, 1
    line = text.count("\n", 0, at) + 1
    return line, at - (text.rfind("\n", 0, at) + 1) + 1


def parse_state_json(forest: Forest, text: str) -> dict[str, Any]:
    """A state's JSON read and checked against the rules' invariants (both engines use it).

    Returns the validated fields; a bad field is a :class:`FormatError` at the line and column of
    its key in ``text``, naming the field.
    """
    data = _load_state_dict(text)
    try:
        return _validated_fields(forest, data)
    except _StateFieldError as exc:
        line, column = _field_position(text, exc.field)
        raise FormatError(exc.expected, line=line, column=column, found=exc.found) from None


# Each field of a dog state's JSON with the check of its value alone, in the order they are
# checked (the first bad field is the one reported); ``outcome`` and the invariants linking the
# fields follow (_check_outcome, _INVARIANTS).
_FieldCheck: TypeAlias = Callable[[Forest, str, Any], Any]


def _integer(low: int, high: Callable[[Forest], int]) -> _FieldCheck:
    """An integer (not a bool) from ``low`` to ``high(forest)``."""

    def check(forest: Forest, field: str, value: Any) -> int:
        top = high(forest)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= top:
            raise _state_error(field, f"an integer in {low}..{top}", value)
        return value

    return check


def _flag(forest: Forest, field: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _state_error(field, "true or false", value)
    return value


def _cell(forest: Forest, field: str, value: Any) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        or not forest.inside((value[0], value[1]))
    ):
        raise _state_error(field, "a [row, col] inside the forest", value)
    return (value[0], value[1])


def _cell_or_null(forest: Forest, field: str, value: Any) -> Cell | None:
    return None if value is None else _cell(forest, field, value)


def _cells(forest: Forest, field: str, value: Any) -> list[Cell]:
    if not isinstance(value, list):
        raise _state_error(field, "a list of [row, col]", value)
    return [_cell(forest, field, v) for v in value]


def _phase(forest: Forest, field: str, value: Any) -> Phase:
    phases = {name: phase for phase, name in PHASE_NAMES.items()}
    if not isinstance(value, str) or value not in phases:
        raise _state_error(field, f"one of {sorted(phases)}", value)
    return phases[value]


_FIELD_CHECKS: tuple[tuple[str, _FieldCheck], ...] = (
    ("phase", _phase),
    ("pos", _cell),
    ("last_left", _cell_or_null),
    ("stamina", _integer(0, lambda forest: MAX_STAMINA)),
    ("curiosity", _integer(0, lambda forest: 30000)),
    ("turn", _integer(1, lambda forest: forest.turns)),
    ("budget", _integer(0, lambda forest: 3)),
    ("pending", _integer(-1, lambda forest: max(3, len(forest.shouters) - 1))),
    ("skip_next", _flag),
    ("stick", _flag),
    ("valve", _flag),
    ("resolved", _cells),
    ("marked", _cells),
    ("offered", _cells),
)
_STATE_FIELDS = frozenset({name for name, _ in _FIELD_CHECKS} | {"outcome"})


def _validated_fields(forest: Forest, data: dict[str, Any]) -> dict[str, Any]:
    """Check a state dictionary against the forest; raise FormatError naming the bad field.

    Every field present and none other, each field's value (:data:`_FIELD_CHECKS`), then the
    outcome and the invariants that link the fields (:data:`_INVARIANTS`), in that order.
    """
    missing = sorted(_STATE_FIELDS - set(data))
    if missing:
        raise FormatError("a dog state with every field", line=1, column=1, found=f"no {missing}")
    unknown = sorted(str(key) for key in set(data) - _STATE_FIELDS)
    if unknown:
        raise _state_error(unknown[0], "absent: a dog state has no such field", data[unknown[0]])
    fields = {name: check(forest, name, data[name]) for name, check in _FIELD_CHECKS}
    fields["won"] = _check_outcome(fields["phase"], data["outcome"])
    for invariant in _INVARIANTS:
        invariant(forest, fields, data)
    return fields


def _check_outcome(phase: Phase, outcome: Any) -> bool:
    """``"win"`` or ``"loss"`` once the game is over, null before; True for a win."""
    if phase == Phase.OVER:
        if outcome not in ("win", "loss"):
            raise _state_error("outcome", '"win" or "loss" when the game is over', outcome)
    elif outcome is not None:
        raise _state_error("outcome", "null while the game goes on", outcome)
    return outcome == "win"


# The invariants linking the fields (``fields``: the checked values; ``data``: the raw ones, for
# the messages), one named function each, in the order they are checked.
def _resolved_are_distractions(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    for c in fields["resolved"]:
        if not forest.terrain(c).is_distraction:
            raise _state_error("resolved", "distraction cells only", list(c))


def _human_not_marked(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    if forest.human in fields["marked"]:
        raise _state_error("marked", "cells other than the human's", list(forest.human))


def _pos_not_a_tree(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    if forest.terrain(fields["pos"]) == Terrain.TREE:
        raise _state_error("pos", "a cell that is not a tree", list(fields["pos"]))


def _marked_not_trees(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    for c in fields["marked"]:
        if forest.terrain(c) == Terrain.TREE:
            raise _state_error("marked", "passable cells only (not a tree)", list(c))


def _on_human_only_when_won(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    on_human = fields["pos"] == forest.human
    if on_human == (fields["phase"] == Phase.OVER and fields["won"]):
        return
    if on_human:
        raise _state_error("pos", "the human's cell only in a won game", list(fields["pos"]))
    raise _state_error("outcome", "a win only with the dog on the human's cell", data["outcome"])


def _pos_marked(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    if fields["pos"] != forest.human and fields["pos"] not in fields["marked"]:
        raise _state_error(
            "marked", "the dog's cell (every entered cell is marked)", data["marked"]
        )


def _check_phase_fields(forest: Forest, out: dict[str, Any], data: Any) -> None:
    """The phase-dependent fields must describe a node the rules can reach."""
    phase, pending, pos = out["phase"], out["pending"], out["pos"]
    in_move = phase in (Phase.STEP, Phase.SHOUT, Phase.OFFER)
    if phase == Phase.STEP and out["budget"] < 1:
        raise _state_error("budget", "at least 1 while a step is due", out["budget"])
    if not in_move and (out["budget"] or out["valve"] or out["offered"]):
        raise _state_error("budget", "0 with no valve and no offers outside a move", out["budget"])
    if phase == Phase.SHOUT:
        numbers = dict(forest.arrows_at(pos))
        if numbers.get(pending, 1) < 2:
            raise _state_error("pending", "an arrow over the dog with a number ≥ 2", pending)
    elif phase == Phase.OFFER:
        dr, dc = DELTAS[OFFER_ORDER[pending]] if 0 <= pending < 4 else (99, 99)
        cell = (pos[0] + dr, pos[1] + dc)
        if (
            not forest.inside(cell)
            or not forest.terrain(cell).is_distraction
            or cell in out["resolved"]
            or cell not in out["offered"]
        ):
            raise _state_error("pending", "the offer slot of an offered distraction", pending)
    elif pending != -1:
        raise _state_error("pending", "-1 in this phase", pending)
    if phase == Phase.SQUIRREL and forest.terrain(pos) != Terrain.SQUIRREL:
        raise _state_error("phase", "'squirrel' only on a squirrel's cell", "squirrel")


def _check_has_moves(forest: Forest, fields: dict[str, Any], data: Any) -> None:
    """A decision node must offer a move (the rules never reach one without)."""
    state = DogState._from_fields(DogGame(forest), fields)
    if not state.is_terminal() and not state.is_chance_node() and not state.legal_actions():
        expected = "a node with a legal action (no move is possible here)"
        raise _state_error("phase", expected, PHASE_NAMES[fields["phase"]])


_INVARIANTS: tuple[Callable[[Forest, dict[str, Any], Any], None], ...] = (
    _resolved_are_distractions,
    _human_not_marked,
    _pos_not_a_tree,
    _marked_not_trees,
    _on_human_only_when_won,
    _pos_marked,
    _check_phase_fields,
    _check_has_moves,
)
