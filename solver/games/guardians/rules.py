"""Forest guardians' reference rules: readable pure Python, the executable specification.

This module implements ``docs/rules/guardians.md`` for 1 (solo) to 4 players. A game is a
sequence of *nodes*: a chance node or a decision of the player whose turn it is. A turn is:

1. refill the pool to 6 (chance draws); in the first solo turn, put a pawn on the start tile;
2. growth: ``reset the pool`` (at most once, flipping a completed mission for -1 VP, then 6 new
   draws), then ``take 2 tiles`` (two ``place tile T at (r,c)`` forest side up) or
   ``take 1 tile`` (``flip tile T``, its reveal, one placement mission side up, with a pawn
   from the reserve);
3. missions: any number of ``walk ... pawn: (r,c) -> ...`` actions (each flipping the walk's
   last tile: a reveal), then ``end turn``.

**Hidden backs** (the default; ``open_backs=True`` is the variant with every back face up). A
tile lies forest side up showing its colour and points preview; its mission is face down. The
tile set is public, so a tile's id tells its face only: which of the face's missions a tile
carries is decided when it is flipped, a chance node whose outcomes are the missions still
unseen for that face (bag, pool, forests and discards included), each with probability (unseen
tiles of that face with that mission) / (unseen tiles of that face). Draws from the bag reveal
a face: their outcomes are the bag's faces (each named by its first tile id in the bag), with
probability (tiles of that face in the bag) / (tiles in the bag). With open backs a draw's
outcomes are the bag's tiles, each equally likely, and a flip is no event.

The action ids are :mod:`solver.games.guardians.actions`; walks, connectivity, scoring and solo
levels each have their own module. Everything automatic (combo cards, the end of a round, the
solo round track's colour removal, level tasks) happens inside :meth:`GuardiansState.apply_action`.

>>> game = GuardiansGame(players=2)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 24)
>>> for _ in range(6):
...     state.apply_action(state.chance_outcomes()[0][0])
>>> [state.action_to_string(a) for a in state.legal_actions()]
['take 2 tiles', 'take 1 tile']
"""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from solver.errors import IllegalActionError, OptionError, shortened
from solver.game import CHANCE, TERMINAL, ChildFromClone, as_action_id, legal_action_id
from solver.games.guardians.actions import (
    END_TURN,
    PAWN_BASE,
    PAWNS,
    RESET,
    TAKE_ONE,
    TAKE_TWO,
    ActionCodec,
    in_window,
)
from solver.games.guardians.board import Cell, Face, cell_text, frontier
from solver.games.guardians.connectivity import splits_forest
from solver.games.guardians.grove_position import Grove
from solver.games.guardians.render_text import render_state_text
from solver.games.guardians.scoring import COMBO_SUPPLY, MISSION_LIMITS, combo_card, winners_share
from solver.games.guardians.solo import (
    BASE_ROUNDS,
    PAWN_COLOURS,
    PAWN_NAMES,
    Level,
    Task,
    level_by_number,
)
from solver.games.guardians.state_json import state_from_json, state_to_dict
from solver.games.guardians.state_parts import (
    CHANCE_PHASES,
    ORIGIN,
    PHASE_NAMES,
    POOL_SIZE,
    Phase,
    PlayerState,
)
from solver.games.guardians.tiles import START_ID, Tile, TileSet, default_tile_set, start_tile
from solver.games.guardians.walks import path_code, path_from_code, walks_from

__all__ = ["POOL_SIZE", "GuardiansGame", "GuardiansState", "Phase", "PlayerState"]

_LABEL = re.compile(
    r"(?P<kind>draw tile|round track: tile|place tile|put|walk)"
    r"(?: (?P<colour>blue|green|yellow|red))?(?: pawn)?:? ?(?P<tile>\d+)?"
    r"(?P<cells>(?: at| on| ->)? ?(?:\(-?\d+,-?\d+\)| ->| )*)?.*",
    re.ASCII,
)
_CELL = re.compile(r"\((-?\d+),(-?\d+)\)", re.ASCII)
LABEL_DIGITS = 6
"""The most digits a label's number is read with (a tile id, a cell's row or column): a label is
user text (a record's action), and ``int()`` refuses more than 4,300 digits."""
#: The labels of the actions whose label the state does not change.
_FIXED_LABELS = {
    "end": "end turn",
    "take2": "take 2 tiles",
    "take1": "take 1 tile",
    "reset": "reset the pool",
}


def _label_number(text: str | None) -> int | None:
    """A number of an action's label (a tile id, a row, a column), or None: absent (``draw
    tile`` with no tile was ``int(None)``, a TypeError) or longer than any
    (:data:`LABEL_DIGITS`)."""
    if text is None or len(text.lstrip("-")) > LABEL_DIGITS:
        return None
    return int(text)


def default_players(level: object, position: Grove | None) -> int:
    """The player count when none is given: 1 for a solo position or where a solo ``level`` is
    given, else 2 (a multi position's other player starts fresh; a fresh game is a 2-player one
    everywhere: ``load_game("guardians")``, ``forest guardians play``, a hint request).

    >>> default_players(None, None), default_players(3, None)
    (2, 1)
    """
    if position is not None:
        return 1 if position.mode == "solo" else 2
    return 1 if level is not None else 2


class GuardiansGame:
    """Forest guardians for ``players`` players (1 = solo at ``level``), reference engine.

    ``tiles`` is the tile set (default: the shipped 72 tiles); ``position`` a :class:`Grove`
    whose forest player 0 holds at the mission step of the first turn (the question "what can I
    complete this turn?"); without it, a fresh game starts from the set-up. ``open_backs``
    turns every tile's mission side face up (the open variant; default: hidden backs).
    ``players`` not given: 2 for a fresh game, as every surface starts one (``forest guardians
    play``, a hint request without ``options.players``), 1 where a ``level`` is given (a level
    asks for a solo game) or the position is a solo one (:func:`default_players`).

    >>> GuardiansGame(players=1, level=3).level.threshold
    74
    """

    name = "guardians"
    engine = "reference"

    def __init__(
        self,
        players: int | None = None,
        *,
        tiles: TileSet | None = None,
        level: int | Level | None = None,
        position: Grove | None = None,
        open_backs: bool = False,
    ) -> None:
        if players is None:
            players = default_players(level, position)
        if isinstance(players, bool) or not isinstance(players, int) or not 1 <= players <= 4:
            raise OptionError(f"forest guardians is played by 1 to 4 players, not {players!r}")
        if position is not None and (position.mode == "solo") != (players == 1):
            raise OptionError(
                f"a {position.mode} position cannot start a game of {players} player(s)"
            )
        if not isinstance(open_backs, bool):
            raise OptionError(f"open_backs must be true or false, not {open_backs!r}")
        if level is not None and players != 1:  # a level is a solo game's: never ignored
            raise OptionError(
                f"level is the solo level (levels are solo only): it does not apply to a game of "
                f"{players} players (drop the level, or play with players=1)"
            )
        self.players = players
        self.solo = players == 1
        self.open_backs = open_backs
        self.tiles = tiles if tiles is not None else default_tile_set()
        solo_level = 1 if level is None else level
        self.level: Level | None = level_by_number(solo_level) if self.solo else None
        self.position = position
        self.codec = ActionCodec(len(self.tiles))
        # The catalogue: the start tile (id 0), the set's tiles 1..N (their faces only with
        # hidden backs), the position's tiles N+1...
        self.catalogue: dict[int, Tile] = {START_ID: start_tile(self.tiles.start_points)}
        for tile in self.tiles.tiles:
            self.catalogue[tile.id] = tile if open_backs else tile.face_only()
        self._faces()
        self._position_forest: dict[Cell, Face] = {}
        self._position_pawns: list[Cell | None] = [None] * PAWNS
        self._position_tokens: list[int] = []
        if position is not None:
            self._read_position(position)
        self.mission_limit = MISSION_LIMITS.get(players, 0)

    def _faces(self) -> None:
        """The set's faces: ``face_members[face]`` its tile ids in order; ``canon[t]`` the first
        tile of t's face with t's back (the code of that back); ``multiplicity[u]`` how many
        tiles of the set have the face and back coded ``u``; ``face_backs[face]`` the face's
        distinct backs as ``(sequence, code)`` in order, faces in order (what the state JSON's
        ``unseen`` lists, read at every step: computed once a game)."""
        self.face_members: dict[str, list[int]] = {}
        self.canon: dict[int, int] = {}
        self.multiplicity: dict[int, int] = {}
        first: dict[tuple[str, str], int] = {}
        for tile in self.tiles.tiles:
            self.face_members.setdefault(tile.face, []).append(tile.id)
            u = first.setdefault((tile.face, tile.sequence), tile.id)
            self.canon[tile.id] = u
            self.multiplicity[u] = self.multiplicity.get(u, 0) + 1
        self.face_backs: dict[str, list[tuple[str, int]]] = {
            face: sorted({(self.back(self.canon[t]), self.canon[t]) for t in members})
            for face, members in sorted(self.face_members.items())
        }

    def _read_position(self, position: Grove) -> None:
        if position.mode == "solo":
            start_points = position.points[4]
            self.catalogue[START_ID] = start_tile(start_points)
        next_id = len(self.tiles) + 1
        multi_pawns = 0
        if position.unknown_backs() and self.open_backs:
            raise OptionError(
                "the position has tiles whose back is not known (B:?5); open_backs=True needs "
                "every back stated (B:GRE)"
            )
        for cell, item in position.tiles():
            if item.start:
                tile_id = START_ID
                self.catalogue[START_ID] = start_tile(position.points[4])
            elif item.hidden:
                # a tile of the set whose back nobody has seen: the first unused of its face
                face = f"{item.colour}{item.preview}"
                free = [
                    t for t in self.face_members.get(face, []) if t not in self._position_tokens
                ]
                if not free:
                    have = len(self.face_members.get(face, []))
                    raise OptionError(
                        f"the position has more {item.colour}:?{item.preview} tiles than the "
                        f"tile set {self.tiles.name!r} has tiles of colour {item.colour} with "
                        f"{item.preview} points ({have})"
                    )
                tile_id = free[0]
                self._position_tokens.append(tile_id)
            else:
                tile_id = next_id
                next_id += 1
                points = position.points_for(item)
                self.catalogue[tile_id] = Tile(tile_id, item.colour, item.sequence, points)
            self._position_forest[cell] = Face(tile_id, item.mission)
            if item.pawn is not None:
                if item.pawn == "p":
                    self._position_pawns[multi_pawns] = cell
                    multi_pawns += 1
                else:
                    self._position_pawns[PAWN_COLOURS.index(item.pawn)] = cell

    # -- the protocol ----------------------------------------------------------------------------
    def new_initial_state(self) -> GuardiansState:
        return GuardiansState(self)

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return self.codec.num_distinct_actions()

    def max_chance_outcomes(self) -> int:
        return len(self.tiles)

    def state_from_json(self, text: str) -> GuardiansState:
        """Read a state written by :meth:`GuardiansState.to_json` (for this game)."""
        return state_from_json(self, text)

    def _blank_state(self) -> GuardiansState:
        """A state of this game with no field set (``state_json`` fills one in)."""
        return GuardiansState(self, _blank=True)

    def tile(self, tile_id: int) -> Tile:
        """Tile ``tile_id`` as the game knows it before play: with hidden backs, a set tile's
        face only (``state.tile`` knows the backs revealed since)."""
        return self.catalogue[tile_id]

    def back(self, code: int) -> str:
        """The mission sequence a reveal outcome's back code ``code`` (a set tile id) stands for."""
        return self.tiles.tile(code).sequence

    def face_of(self, tile_id: int) -> str:
        """The face (``"B5"``) of tile ``tile_id`` of the set."""
        return self.catalogue[tile_id].face

    def __repr__(self) -> str:
        extra = f", level={self.level.number}" if self.level is not None else ""
        extra += ", open_backs=True" if self.open_backs else ""
        return f"GuardiansGame(players={self.players}{extra}, engine='reference')"


class GuardiansState(ChildFromClone):
    """One position of forest guardians. See the module docstring for the turn."""

    def __init__(self, game: GuardiansGame, *, _blank: bool = False) -> None:
        self.game = game
        self._legal: list[int] | None = None
        if _blank:
            return
        n = game.players
        self.people = [PlayerState() for _ in range(n)]
        self.pool: list[int] = []
        tokens = set(game._position_tokens)
        self.bag: list[int] = [t.id for t in game.tiles.tiles if t.id not in tokens]
        self.discard: list[int] = []
        self.track: list[int] = []
        self.supply = list(COMBO_SUPPLY) if not game.solo else [0, 0, 0, 0]
        self.current = 0
        self.round = 1
        self.phase = Phase.DRAW
        self.draws_left = 0
        self.reset_used = False
        self.to_place = 0
        self.mission_side = False
        self.placed: Cell | None = None
        self.turn_missions = 0
        self.end_triggered = False
        self.tasks_done = [False] * (len(game.level.tasks) if game.level else 0)
        self.backs: dict[int, int] = {}  # hidden backs: tile -> code of the back it showed
        self.known: dict[int, Tile] = game.catalogue  # copied before a reveal changes it
        self.picked: int | None = None  # hidden backs: the pool tile `take 1 tile` flipped
        self.revealing: int | None = None  # the tile whose back the reveal node decides
        for player in self.people:
            player.forest[ORIGIN] = Face(START_ID, True)
            if not game.solo:
                player.pawns[0] = ORIGIN
        if game.position is not None:
            me = self.people[0]
            me.forest = dict(game._position_forest)
            me.pawns = list(game._position_pawns)
            self.phase = Phase.MISSIONS
            self.end_triggered = not self.bag  # a position holding every tile of the set
        else:
            self._begin_turn()

    # -- the protocol ----------------------------------------------------------------------------
    def get_game(self) -> GuardiansGame:
        """The game this state belongs to (as OpenSpiel's ``State.get_game()``)."""
        return self.game

    def current_player(self) -> int:
        if self.phase == Phase.OVER:
            return TERMINAL
        if self.phase in CHANCE_PHASES:
            return CHANCE
        return self.current

    def is_terminal(self) -> bool:
        return self.phase == Phase.OVER

    def is_chance_node(self) -> bool:
        return self.phase in CHANCE_PHASES

    def scores(self) -> list[int]:
        """Each player's score now: mission points + combo cards - resets."""
        return [self.score(i) for i in range(self.game.players)]

    def score(self, player: int) -> int:
        who = self.people[player]
        points = sum(self.game.tile(t).points for t, _, _ in who.pile)
        return points + sum(who.cards) - who.resets

    def heuristic(self, player: int) -> float:
        """An estimate of the return of ``player`` in [0, 1] (see the heuristic module; the
        ``mcts`` agent searches with the planner's evaluation instead,
        :mod:`solver.games.guardians.evaluation`)."""
        from solver.games.guardians.heuristic import heuristic

        return heuristic(self, player)

    def tile_count(self, player: int) -> int:
        """Tiles in the player's forest and pile together (the tie-break: fewer wins)."""
        who = self.people[player]
        return len(who.forest) + len(who.pile)

    def returns(self) -> list[float]:
        """At the end: 1 for the winner (tied players share 1), 0 for the others; solo: 1 when
        the level's threshold is reached. Before the end: 0 for everyone."""
        n = self.game.players
        if self.phase != Phase.OVER:
            return [0.0] * n
        if self.game.solo:
            assert self.game.level is not None
            return [1.0 if self.score(0) >= self.game.level.threshold else 0.0]
        return winners_share(self.scores(), [self.tile_count(i) for i in range(n)])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The outcomes with their exact probabilities: the bag's tiles (open backs) or faces
        (hidden backs) for a draw, the unseen backs of the tile's face for a reveal."""
        if self.phase not in CHANCE_PHASES:
            return []
        codec = self.game.codec
        if self.phase == Phase.REVEAL:
            return [(codec.draw(u), n / total) for u, n, total in self._back_counts()]
        if self.game.open_backs:
            p = 1.0 / len(self.bag)
            return [(codec.draw(t), p) for t in self.bag]
        firsts: dict[str, int] = {}
        counts: dict[str, int] = {}
        for t in self.bag:  # the bag is sorted: the first tile of a face names it
            face = self.game.face_of(t)
            firsts.setdefault(face, t)
            counts[face] = counts.get(face, 0) + 1
        n = len(self.bag)
        return sorted((codec.draw(firsts[f]), counts[f] / n) for f in firsts)

    def _back_counts(self) -> list[tuple[int, int, int]]:
        """At a reveal: ``(back code, unseen tiles of the face with it, unseen of the face)``."""
        assert self.revealing is not None
        return self.unseen_backs(self.game.face_of(self.revealing))

    def unseen_backs(self, face: str) -> list[tuple[int, int, int]]:
        """The backs not yet seen of the set's tiles with ``face`` (``"B5"``): ``(back code,
        how many unseen tiles of the face carry it, how many unseen tiles the face has)`` in
        code order (hidden backs; every tile not flipped counts, wherever it lies)."""
        game = self.game
        counts = {}
        for t in game.face_members.get(face, []):
            u = game.canon[t]
            counts[u] = game.multiplicity[u]
        for u in self.backs.values():
            if u in counts:
                counts[u] -= 1
        total = sum(counts.values())
        return [(u, n, total) for u, n in sorted(counts.items()) if n > 0]

    def tile(self, tile_id: int) -> Tile:
        """Tile ``tile_id`` as known now: with hidden backs, a set tile not yet flipped is its
        face only (``hidden``), a flipped one shows the back it revealed."""
        return self.known[tile_id]

    @property
    def catalogue(self) -> dict[int, Tile]:
        """Every tile as known now (read-only: see :meth:`tile`)."""
        return self.known

    def legal_actions(self) -> list[int]:
        """The legal actions, sorted (computed once per state: the reference engine's states
        change only through :meth:`apply_action`)."""
        if self._legal is None:
            self._legal = self._compute_legal()
        return list(self._legal)

    def _compute_legal(self) -> list[int]:
        phase = self.phase
        codec = self.game.codec
        if phase in CHANCE_PHASES:
            return sorted(a for a, _ in self.chance_outcomes())
        me = self.people[self.current]
        if phase == Phase.START_PAWN:
            return [PAWN_BASE + p for p in range(PAWNS)]
        if phase == Phase.GROW:
            return self._growth_actions()
        if phase == Phase.PLACE:
            return self._placements()
        if phase == Phase.PICK:
            return [codec.pick(s) for s in range(len(self.pool))]
        if phase == Phase.PAWN:
            return [PAWN_BASE + p for p in me.reserve()]
        if phase == Phase.MISSIONS:
            return [END_TURN, *sorted(codec.walk(p, code) for p, code in self._walks())]
        return []

    def apply_action(self, action: int) -> None:
        action = legal_action_id(self, action, self._safe_label, self._where)
        self._legal = None
        codec = self.game.codec
        phase = self.phase
        me = self.people[self.current]
        if phase == Phase.DRAW:
            self._draw(codec.decode_draw(action))
        elif phase == Phase.REVEAL:
            self._reveal(codec.decode_draw(action))
        elif phase == Phase.PICK:
            self.picked = self.pool[codec.decode_pick(action)]
            self.revealing = self.picked
            self.phase = Phase.REVEAL
        elif phase == Phase.TRACK:
            self._round_track(codec.decode_draw(action))
        elif phase == Phase.START_PAWN:
            me.pawns[action - PAWN_BASE] = ORIGIN
            self._enter_growth()
        elif phase == Phase.GROW:
            self._grow(action)
        elif phase == Phase.PLACE:
            slot, cell = codec.decode_place(action)
            self._place(self.pool[slot], cell)
        elif phase == Phase.PAWN:
            assert self.placed is not None
            me.pawns[action - PAWN_BASE] = self.placed
            self.placed = None
            self._after_placement()
        elif action == END_TURN:
            self._end_turn()
        else:
            self._walk(*codec.decode_walk(action))

    def clone(self) -> GuardiansState:
        other = GuardiansState(self.game, _blank=True)
        other.__dict__.update(self.__dict__)
        other.people = [p.copy() for p in self.people]
        other.pool = list(self.pool)
        other.bag = list(self.bag)
        other.discard = list(self.discard)
        other.track = list(self.track)
        other.supply = list(self.supply)
        other.tasks_done = list(self.tasks_done)
        other.backs = dict(self.backs)
        other._legal = self._legal  # a list never changed in place; apply_action resets it
        return other

    # -- labels ----------------------------------------------------------------------------------
    def pawn_name(self, pawn: int) -> str:
        """``"blue pawn"`` in solo, ``"pawn"`` with 2-4 players (their pawns are alike)."""
        return f"{PAWN_NAMES[pawn]} pawn" if self.game.solo else "pawn"

    def action_to_string(self, action: int) -> str:
        action = as_action_id(action)
        codec = self.game.codec
        kind = codec.kind(action)
        if kind in _FIXED_LABELS:
            return _FIXED_LABELS[kind]
        if kind == "pawn":
            return self._pawn_label(action)
        if kind == "draw":
            return self._draw_label(codec.decode_draw(action))
        if kind == "pick":
            return self._pick_label(codec.decode_pick(action))
        if kind == "place":
            return self._place_label(*codec.decode_place(action))
        if kind == "walk":
            return self._walk_label(*codec.decode_walk(action))
        raise IllegalActionError(
            f"{action} is not a guardians action id (0..{codec.num_distinct_actions() - 1})"
        )

    def _pawn_label(self, action: int) -> str:
        colour = PAWN_NAMES[action - PAWN_BASE]
        if self.phase == Phase.PAWN and self.placed is not None:
            return f"put {colour} pawn on {cell_text(self.placed)}"
        return f"put {colour} pawn on the start tile"

    def _draw_label(self, tile: int) -> str:
        """A draw's label: to the round track, a reveal (``tile`` codes the back), from the bag."""
        if self.phase == Phase.TRACK:
            return f"round track: tile {tile}"
        if self.phase == Phase.REVEAL and self.revealing is not None:
            back = "-".join(self.game.back(tile))
            return f"reveal tile {self.revealing}: {back}"
        return f"draw tile {tile}"

    def _pick_label(self, slot: int) -> str:
        if self.phase != Phase.PICK or slot >= len(self.pool):
            return f"flip the pool's tile {slot + 1}"
        return f"flip tile {self.pool[slot]}"

    def _place_label(self, slot: int, cell: Cell) -> str:
        if self.phase != Phase.PLACE or slot >= len(self.pool):
            return f"place the pool's tile {slot + 1} at {cell_text(cell)}"
        side = " mission side up" if self.mission_side else ""
        return f"place tile {self.pool[slot]} at {cell_text(cell)}{side}"

    def _walk_label(self, pawn: int, code: int) -> str:
        start = self.people[self.current].pawns[pawn] if self.phase != Phase.OVER else None
        if start is None:
            return f"walk {self.pawn_name(pawn)}: code {code}"
        path = path_from_code(start, code)
        cells = " ".join(cell_text(c) for c in path)
        return f"walk {self.pawn_name(pawn)}: {cell_text(start)} -> {cells}"

    def string_to_action(self, label: str) -> int:
        """The legal action whose label is ``label`` (case and runs of spaces ignored)."""
        wanted = " ".join(str(label).split()).lower()
        legal = self.legal_actions()
        candidate = self._parse_label(wanted)
        if candidate in legal and self.action_to_string(candidate).lower() == wanted:
            return candidate
        for action in legal:
            if self.action_to_string(action).lower() == wanted:
                return action
        labels = ", ".join(repr(self.action_to_string(a)) for a in self.legal_actions()[:12])
        raise IllegalActionError(
            f"no legal action is labelled {shortened(str(label))!r}; legal: {labels}"
        )

    def _parse_label(self, label: str) -> int | None:
        """The action id a label names, read from its text (``None`` if it names none)."""
        codec = self.game.codec
        fixed = {"end turn": END_TURN, "take 2 tiles": TAKE_TWO, "take 1 tile": TAKE_ONE}
        fixed["reset the pool"] = RESET
        if label in fixed:
            return fixed[label]
        match = _LABEL.fullmatch(label)
        if match is None:
            return None
        kind, colour, tile_text, cells = match.group("kind", "colour", "tile", "cells")
        tile = _label_number(tile_text)
        found = [(_label_number(r), _label_number(c)) for r, c in _CELL.findall(cells or "")]
        points = [(r, c) for r, c in found if r is not None and c is not None]
        if len(points) < len(found):
            return None
        if kind in ("draw tile", "round track: tile"):
            return (
                codec.draw(tile) if tile is not None and 1 <= tile <= len(self.game.tiles) else None
            )
        if kind == "place tile":
            if len(points) != 1 or tile not in self.pool or not in_window(points[0]):
                return None
            return codec.place(self.pool.index(tile), points[0])
        if kind == "put" and colour in PAWN_NAMES:
            return PAWN_BASE + PAWN_NAMES.index(colour)
        if kind == "walk" and len(points) >= 2:
            pawn = self.people[self.current].pawn_at(points[0])
            if pawn is None or any(
                abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1 for a, b in itertools.pairwise(points)
            ):
                return None
            return codec.walk(pawn, path_code(points[0], tuple(points[1:])))
        return None

    def _where(self) -> str:
        """Where the game stands, for the refusal of an illegal action."""
        return f"(phase {PHASE_NAMES[self.phase]}, round {self.round}, player {self.current})"

    def _safe_label(self, action: int) -> str:
        try:
            return self.action_to_string(action)
        except (IllegalActionError, ValueError, KeyError, IndexError):
            return "not an action"

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return state_to_dict(self)

    def to_json(self) -> str:
        """The full state as canonical JSON (equal states give equal strings)."""
        return json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GuardiansState) and other.to_json() == self.to_json()

    def __hash__(self) -> int:
        return hash(self.to_json())

    def __str__(self) -> str:
        return render_state_text(self)

    def __repr__(self) -> str:
        return f"GuardiansState({self.to_json()})"

    # -- queries ---------------------------------------------------------------------------------
    def _growth_actions(self) -> list[int]:
        """The growth choices: take two tiles; take one while a pawn is in the reserve; reset the
        pool where :meth:`_may_reset` allows it."""
        actions = [TAKE_TWO]
        if self.people[self.current].reserve():
            actions.append(TAKE_ONE)
        if self._may_reset():
            actions.append(RESET)
        return actions

    def _placements(self) -> list[int]:
        """A pool tile (the one picked, once one is) on any frontier cell in the window."""
        cells = [c for c in frontier(self.people[self.current].forest) if in_window(c)]
        slots = range(len(self.pool))
        if self.picked is not None:
            slots = range(self.pool.index(self.picked), self.pool.index(self.picked) + 1)
        return sorted(self.game.codec.place(s, c) for s in slots for c in cells)

    def _may_reset(self) -> bool:
        """A reset needs a completed mission not flipped yet, and tiles in the bag to draw (with
        an empty bag it would only throw the pool away: refused)."""
        me = self.people[self.current]
        return not self.reset_used and len(me.pile) > me.resets and bool(self.bag)

    def _walks(self) -> list[tuple[int, int]]:
        """Every legal walk of the player to move as ``(pawn, direction code)``."""
        me = self.people[self.current]
        out = []
        for pawn, cell in enumerate(me.pawns):
            if cell is None or splits_forest(me.forest.keys(), cell):
                continue
            for path in walks_from(me.forest, self.known, cell):
                out.append((pawn, path_code(cell, path)))
        return out

    def walks(self) -> list[tuple[int, Cell, tuple[Cell, ...]]]:
        """The legal walks now, as ``(pawn, mission cell, path)`` (empty off the mission step)."""
        if self.phase != Phase.MISSIONS:
            return []
        me = self.people[self.current]
        out = []
        for pawn, code in self._walks():
            cell = me.pawns[pawn]
            assert cell is not None
            out.append((pawn, cell, path_from_code(cell, code)))
        return out

    # -- the turn --------------------------------------------------------------------------------
    def _begin_turn(self) -> None:
        """Start the turn of ``self.current``: refill the pool (chance) or go on to growth."""
        self.reset_used = False
        self.turn_missions = 0
        need = POOL_SIZE - len(self.pool)
        self.draws_left = min(need, len(self.bag))
        if self.draws_left:
            self.phase = Phase.DRAW
        else:
            self._after_draws()

    def _draw(self, tile: int) -> None:
        self.bag.remove(tile)
        if not self.bag:
            self.end_triggered = True  # the bag ran out: this round is the last
        self.pool.append(tile)
        self.pool.sort()
        self.draws_left -= 1
        if self.draws_left == 0:
            self._after_draws()

    def _after_draws(self) -> None:
        me = self.people[self.current]
        fresh = self.game.solo and self.game.position is None and self.round == 1
        if fresh and all(p is None for p in me.pawns):
            self.phase = Phase.START_PAWN
            return
        self._enter_growth()

    def _enter_growth(self) -> None:
        # With an empty pool (the bag is empty too) there is nothing to grow: go to missions.
        self.phase = Phase.GROW if self.pool else Phase.MISSIONS

    def _grow(self, action: int) -> None:
        if action == RESET:
            me = self.people[self.current]
            me.resets += 1
            self.reset_used = True
            self.discard.extend(self.pool)
            self.discard.sort()
            self.pool = []
            self.draws_left = min(POOL_SIZE, len(self.bag))
            if self.draws_left:
                self.phase = Phase.DRAW
            else:
                self._enter_growth()
            return
        self.mission_side = action == TAKE_ONE
        self.to_place = 1 if action == TAKE_ONE else min(2, len(self.pool))
        # with hidden backs the tile is flipped (a reveal) before it is placed
        hidden = self.mission_side and not self.game.open_backs
        self.phase = Phase.PICK if hidden else Phase.PLACE

    def _place(self, tile: int, cell: Cell) -> None:
        me = self.people[self.current]
        self.pool.remove(tile)
        self.picked = None
        me.forest[cell] = Face(tile, self.mission_side)
        self.to_place -= 1
        if self.mission_side:
            if self.game.solo:
                self.placed = cell
                self.phase = Phase.PAWN
                return
            me.pawns[me.reserve()[0]] = cell
        self._after_placement()

    def _after_placement(self) -> None:
        if self.to_place > 0 and self.pool:
            self.phase = Phase.PLACE
            return
        self.to_place = 0
        self.mission_side = False
        self.phase = Phase.MISSIONS

    def _walk(self, pawn: int, code: int) -> None:
        me = self.people[self.current]
        start = me.pawns[pawn]
        assert start is not None
        path = path_from_code(start, code)
        done = me.forest.pop(start)
        me.pile.append((done.tile, pawn, self.round))
        end = path[-1]
        flipped = me.forest[end].tile
        me.forest[end] = Face(flipped, True)
        me.pawns[pawn] = end
        self.turn_missions += 1
        if self.known[flipped].hidden:
            self.revealing = flipped
            self.phase = Phase.REVEAL

    def _reveal(self, code: int) -> None:
        """The tile being flipped shows the back coded ``code``; play goes on where it was."""
        tile = self.revealing
        assert tile is not None
        self.backs[tile] = code
        self.known = dict(self.known)
        self.known[tile] = self.known[tile].showing(self.game.back(code))
        self.revealing = None
        self.phase = Phase.PLACE if self.picked is not None else Phase.MISSIONS

    def _end_turn(self) -> None:
        me = self.people[self.current]
        if not self.game.solo:
            card = combo_card(self.turn_missions, self.supply)
            if card is not None:
                self.supply[card - 2] -= 1
                me.cards.append(card)
            if len(me.pile) >= self.game.mission_limit:
                self.end_triggered = True
        self.turn_missions = 0
        self.reset_used = False
        if self.current < self.game.players - 1:
            self.current += 1
            self._begin_turn()
            return
        self._end_round()

    def _end_round(self) -> None:
        if self.game.solo:
            self._check_tasks()
            if self.end_triggered or self.round >= self.rounds():
                self._finish()
                return
            if self.bag:
                self.phase = Phase.TRACK
                return
        elif self.end_triggered:
            self._finish()
            return
        self._next_round()

    def _next_round(self) -> None:
        self.round += 1
        self.current = 0
        self._begin_turn()

    def _round_track(self, tile: int) -> None:
        """Solo: ``tile`` goes to the round track; pool tiles of its colour leave the game."""
        self.bag.remove(tile)
        self.track.append(tile)
        colour = self.game.tile(tile).colour
        gone = [t for t in self.pool if self.game.tile(t).colour == colour]
        self.pool = [t for t in self.pool if t not in gone]
        self.discard = sorted(self.discard + gone)
        if not self.bag:  # the bag ran out after a finished round: the game ends
            self.end_triggered = True
            self._finish()
            return
        self._next_round()

    def _finish(self) -> None:
        self.phase = Phase.OVER
        self.draws_left = 0

    # -- solo ------------------------------------------------------------------------------------
    def rounds(self) -> int:
        """Solo: the rounds on the track, 12 plus one per completed level task."""
        return BASE_ROUNDS + sum(self.tasks_done)

    def colour_points(self) -> list[int]:
        """Solo: mission points credited to each pawn colour (blue, green, yellow, red)."""
        out = [0] * PAWNS
        for tile, pawn, _ in self.people[0].pile:
            out[pawn] += self.tile(tile).points
        return out

    def task_met(self, task: Task) -> bool:
        """Whether the solo player meets ``task`` now (tasks are checked at each round's end)."""
        me = self.people[0]
        if task.kind == "all_colours":
            return {pawn for _, pawn, _ in me.pile} == set(range(PAWNS))
        if task.kind == "start_tile":
            return any(tile == START_ID for tile, _, _ in me.pile)
        if task.kind == "colour_points":
            return self.colour_points()[task.colour] >= task.value
        if task.kind == "missions_in_turn":
            rounds = [r for _, _, r in me.pile]
            return any(rounds.count(r) >= task.value for r in set(rounds))
        if task.kind == "long_mission":
            return any(self.tile(t).walk_length >= task.value for t, _, _ in me.pile)
        return self.round >= BASE_ROUNDS and len(me.forest) <= task.value

    def _check_tasks(self) -> None:
        level = self.game.level
        assert level is not None
        for i, task in enumerate(level.tasks):
            if not self.tasks_done[i] and self.task_met(task):
                self.tasks_done[i] = True
