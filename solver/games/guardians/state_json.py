"""The JSON form of a guardians state, and its strict validation when read back.

The state's JSON holds everything that changes during play; the game (players, tile set, level,
starting position) is fixed and not repeated. Reading checks every field against the game and
raises :class:`~solver.errors.FormatError` naming the field, so a bad document never becomes a
half-valid state. Every tile of the set must be in exactly one place (bag, pool, discard, round
track, a forest or a points pile).

Fields: ``players`` (per player: ``forest`` as ``[row, col, tile, "forest"|"mission"]`` sorted by
cell, ``pawns`` four ``[row, col]`` or ``null``, ``pile`` as ``[tile, pawn, round]`` in order,
``resets``, ``cards``), ``pool``, ``bag``, ``discard`` (sorted tile ids), ``track`` (in order),
``supply`` (the +2..+5 combo cards left), ``current``, ``round``, ``phase``, ``draws_left``,
``reset_used``, ``to_place``, ``mission_side``, ``placed``, ``turn_missions``,
``end_triggered``, ``tasks_done``; solo also ``level`` (the level's number: the level decides
the threshold and the tasks, so a state saved at one level is refused by a game of another, the
error naming both; a state saved without it, before the field, is read at the game's level).
With hidden backs (the default rule) also ``backs`` (every flipped tile of the set with the
mission it showed, ``[tile, "GRE"]`` by tile id), ``unseen`` (the missions not seen yet, as a
multiset per face: ``{"B5": ["GRG", "PRG"], ...}``, sorted),
``picked`` (the pool tile ``take 1 tile`` flipped, or ``null``) and ``revealing`` (the tile whose
back the reveal node decides, or ``null``). A tile id alone never tells a back: the ids of the
tiles not yet flipped stand for their faces only.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from solver.errors import FormatError
from solver.fields import check_state_game, field_error, whole_number
from solver.files import parse_json
from solver.games.guardians.actions import PAWNS, in_window
from solver.games.guardians.board import Cell, Face
from solver.games.guardians.connectivity import is_connected
from solver.games.guardians.scoring import COMBO_SUPPLY
from solver.games.guardians.solo import BASE_ROUNDS
from solver.games.guardians.state_parts import ORIGIN, PHASE_NAMES, POOL_SIZE, Phase, PlayerState
from solver.games.guardians.tiles import START_ID

if TYPE_CHECKING:
    from solver.games.guardians.rules import GuardiansGame, GuardiansState

__all__ = ["saved_open_backs", "state_from_json", "state_to_dict"]

_FIELDS = (
    "bag", "current", "discard", "draws_left", "end_triggered", "mission_side", "phase",
    "placed", "players", "pool", "reset_used", "round", "supply", "tasks_done", "to_place",
    "track", "turn_missions",
)  # fmt: skip
_HIDDEN_FIELDS = ("backs", "picked", "revealing", "unseen")
_PLAYER_FIELDS = ("cards", "forest", "pawns", "pile", "resets")


def state_to_dict(state: GuardiansState) -> dict[str, Any]:
    """The state as a JSON-ready dictionary (canonical: equal states, equal dictionaries)."""
    players = []
    for who in state.people:
        players.append(
            {
                "forest": [
                    [r, c, face.tile, "mission" if face.mission else "forest"]
                    for (r, c), face in sorted(who.forest.items())
                ],
                "pawns": [list(p) if p is not None else None for p in who.pawns],
                "pile": [list(entry) for entry in who.pile],
                "resets": who.resets,
                "cards": list(who.cards),
            }
        )
    out = {
        "players": players,
        "pool": list(state.pool),
        "bag": list(state.bag),
        "discard": list(state.discard),
        "track": list(state.track),
        "supply": list(state.supply),
        "current": state.current,
        "round": state.round,
        "phase": PHASE_NAMES[state.phase],
        "draws_left": state.draws_left,
        "reset_used": state.reset_used,
        "to_place": state.to_place,
        "mission_side": state.mission_side,
        "placed": list(state.placed) if state.placed is not None else None,
        "turn_missions": state.turn_missions,
        "end_triggered": state.end_triggered,
        "tasks_done": list(state.tasks_done),
    }
    if state.game.level is not None:
        out["level"] = state.game.level.number
    if not state.game.open_backs:
        out["backs"] = [[t, state.game.back(u)] for t, u in sorted(state.backs.items())]
        out["unseen"] = unseen_multiset(state)
        out["picked"] = state.picked
        out["revealing"] = state.revealing
    return out


def unseen_multiset(state: GuardiansState) -> dict[str, list[str]]:
    """The missions not seen yet per face (hidden backs), each list sorted; faces with none
    left are left out."""
    game = state.game
    seen = Counter(state.backs.values())  # one pass over the flipped tiles, not one per face
    out: dict[str, list[str]] = {}
    # each face's backs in order, listed once a game by the reference game (the kernel's game
    # keeps one as ``reference``: read there, a kernel built before the table still writes)
    tables = getattr(game, "reference", game)
    for face, distinct in tables.face_backs.items():
        backs: list[str] = []
        for back, u in distinct:
            backs += [back] * (game.multiplicity[u] - seen[u])
        if backs:
            out[face] = backs
    return out


def _bad(field: str, expected: str, found: Any) -> FormatError:
    return field_error(f"state field {field}", expected, found)


def _int(value: Any, field: str, low: int, high: int) -> int:
    return whole_number(f"state field {field}", value, low, high)


def _flag(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise _bad(field, "true or false", value)
    return value


def _cell(value: Any, field: str) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(v, bool) or not isinstance(v, int) for v in value)
        or not in_window((value[0], value[1]))
    ):
        raise _bad(field, "a [row, col] with rows and columns -32..31", value)
    return (value[0], value[1])


def _ids(value: Any, field: str, high: int, *, ordered: bool) -> list[int]:
    if not isinstance(value, list):
        raise _bad(field, "a list of tile ids", value)
    ids = [_int(v, f"{field}[{i}]", 1, high) for i, v in enumerate(value)]
    if ordered and ids != sorted(set(ids)):
        raise _bad(field, "tile ids in increasing order, each once", value)
    return ids


def state_from_json(game: GuardiansGame, text: str) -> GuardiansState:
    """A validated state of ``game`` from the JSON of :func:`state_to_dict`."""
    data = parse_json(text, "a JSON object (a guardians state)")
    if not isinstance(data, dict):
        raise _bad("(top level)", "a JSON object", data)
    check_state_game(data, "guardians")
    return state_from_dict(game, data)


def state_from_dict(game: GuardiansGame, data: dict[str, Any]) -> GuardiansState:
    """A validated state of ``game`` from its dictionary form: the fields, the players, where
    every tile is, the combo cards, the counters and flags, then (hidden backs) the backs and
    the phase's own fields."""
    _check_fields(game, data)
    _check_level(game, data)
    _check_tile_set(game, data)
    state = game._blank_state()
    phases = {name: phase for phase, name in PHASE_NAMES.items()}
    if not isinstance(data["phase"], str) or data["phase"] not in phases:
        raise _bad("phase", f"one of {', '.join(phases)}", data["phase"])
    state.phase = phases[data["phase"]]
    players = data["players"]
    if not isinstance(players, list) or len(players) != game.players:
        raise _bad("players", f"a list of {game.players} players", players)
    places = _Places()
    state.people = [
        _read_player(game, f"players[{i}]", raw, places) for i, raw in enumerate(players)
    ]
    _read_tiles(game, state, data, places)
    _read_supply(game, state, data["supply"])
    _read_counters(game, state, data)
    state.backs = {}
    state.known = game.catalogue
    state.picked = state.revealing = None
    state._legal = None
    if not game.open_backs:
        _read_backs(game, state, data)
    _check_start(game, state)
    _check_phase(game, state, Phase)
    return state


def _check_start(game: GuardiansGame, state: GuardiansState) -> None:
    """The start tile stands where the rules put it, at ``ORIGIN`` (a grove position's forest
    aside: it holds its own cells), and in a fresh solo game, before the first pawn enters, it
    is there: the pawn enters at ``ORIGIN``. Before, a start tile moved to (0,-1) loaded, and
    the search met a pawn on an empty cell (a KeyError, 500 internal over the hint service)."""
    if game.position is not None:
        return
    for i, who in enumerate(state.people):
        for cell, face in who.forest.items():
            if face.tile == START_ID and cell != ORIGIN:
                raise _bad(f"players[{i}].forest", f"the start tile at {list(ORIGIN)}", list(cell))
    me = state.people[state.current]
    fresh = game.solo and state.round == 1 and all(p is None for p in me.pawns)
    if fresh and me.forest.get(ORIGIN) != Face(START_ID, True):
        raise _bad(f"players[{state.current}].forest",
                   f"the start tile at {list(ORIGIN)} before the first pawn enters",
                   me.forest.get(ORIGIN))  # fmt: skip


def _check_fields(game: GuardiansGame, data: dict[str, Any]) -> None:
    """Every field of the state present, and no other (a solo state's ``level`` may be absent:
    :func:`_check_level`); a state of the other backs rule is refused naming the option
    (:func:`_check_backs_rule`)."""
    missing = [f for f in _FIELDS if f not in data]
    if missing:
        raise _bad(missing[0], "present", None)
    _check_backs_rule(game, data)
    fields = _FIELDS if game.open_backs else tuple(sorted(_FIELDS + _HIDDEN_FIELDS))
    missing = [f for f in fields if f not in data]
    if missing:
        raise _bad(missing[0], "present", None)
    if game.level is not None:
        fields += ("level",)
    extra = sorted(set(data) - set(fields))
    if extra:
        raise _bad(extra[0], "absent (not a state field)", extra[0])


def saved_open_backs(data: dict[str, Any]) -> bool:
    """Whether a state's dictionary was saved under open backs: it has none of the hidden-backs
    fields (``backs``, ``unseen``, ``picked``, ``revealing``), which every state of hidden backs
    writes (the state records its rule by its shape)."""
    return not any(name in data for name in _HIDDEN_FIELDS)


def _check_backs_rule(game: GuardiansGame, data: dict[str, Any]) -> None:
    """A state is read under the backs rule it was saved in: a hidden-backs state read by an
    ``open_backs`` game, or an open-backs state by a hidden-backs one, is refused naming the
    option (it said ``state field backs to be absent (not a state field)``, or ``to be present,
    found null``, of a state that was whole)."""
    saved = saved_open_backs(data)
    if saved == game.open_backs:
        return
    asked = "open backs (open_backs=true, as asked)" if game.open_backs else (
        "hidden backs (open_backs=false, as asked: the default)")  # fmt: skip
    raise FormatError(
        f"a state of {asked}",
        line=1,
        column=1,
        found=f"a state saved with {'open' if saved else 'hidden'} backs: ask for "
        f"open_backs={str(saved).lower()} to read it",
    )


def _named_tiles(data: dict[str, Any]) -> set[int]:
    """The tile ids a state's dictionary names (the start tile aside), read leniently: the
    fields' own checks come after."""
    found: list[Any] = []
    for field in ("pool", "bag", "discard", "track"):
        if isinstance(data.get(field), list):
            found += data[field]
    for who in data["players"] if isinstance(data.get("players"), list) else []:
        if isinstance(who, dict):
            for key, at in (("forest", 2), ("pile", 0)):
                rows = who.get(key)
                found += [r[at] for r in rows if isinstance(r, list) and len(r) > at] if (
                    isinstance(rows, list)) else []  # fmt: skip
    return {t for t in found if isinstance(t, int) and not isinstance(t, bool) and t != START_ID}


def _check_tile_set(game: GuardiansGame, data: dict[str, Any]) -> None:
    """A state naming tiles 1..k, every one, for a game whose set has another count was saved
    with another tile set (the state does not repeat it): refused naming the tiles option. It
    said 'state field bag to be every tile of the set somewhere (tile 41 is nowhere)' of a
    40-tile set's state read by the standard game, or 'bag[66] to be a whole number 1..72,
    found 73' of a larger set's."""
    named = _named_tiles(data)
    top = max(game.catalogue)  # the set's tiles, then a grove position's own
    if named and len(named) != top and named == set(range(1, len(named) + 1)):
        whose = "its tile set and position" if game.position is not None else "its tile set"
        raise FormatError(
            f"a state of this game's {top} tiles ({whose}; the tiles option, default the "
            "standard set)",
            line=1,
            column=1,
            found=f"a state naming tiles 1 to {len(named)}, saved with another tile set? ask for "
            "its tiles (--option tiles=FILE; a request's options.tiles)",
        )


def _check_level(game: GuardiansGame, data: dict[str, Any]) -> None:
    """A solo state's ``level`` is the game's: the level decides the threshold and the tasks
    (who won), so a state saved at level 1 read by a level-5 game is refused, naming both, not
    read silently at level 5. A state without ``level`` (saved before the field) is read at the
    game's level, as it was before."""
    if game.level is None or "level" not in data:
        return
    saved = _int(data["level"], "level", 1, 10_000)
    if saved != game.level.number:
        raise FormatError(
            f"a state of solo level {game.level.number} (the level asked for: the level option, "
            f"default 1)",
            line=1,
            column=1,
            found=f"a state saved at solo level {saved}: ask for level {saved} to read it",
        )


class _Places(dict[int, str]):
    """Where each tile read so far is (a tile may be in one place only; the start tile aside)."""

    def place(self, tile: int, where: str) -> None:
        if tile != START_ID and tile in self:
            raise _bad(where, f"tile {tile} in one place only (also in {self[tile]})", tile)
        self[tile] = where


def _read_player(game: GuardiansGame, where: str, raw: Any, places: _Places) -> PlayerState:
    """One entry of ``players``: the forest, the pawns, the points pile, resets and cards."""
    if not isinstance(raw, dict) or set(raw) != set(_PLAYER_FIELDS):
        raise _bad(where, f"an object with {', '.join(_PLAYER_FIELDS)}", raw)
    who = PlayerState()
    _read_forest(game, who, where, raw["forest"], places)
    _read_pawns(game, who, where, raw["pawns"])
    _read_pile(game, who, where, raw["pile"], places)
    tiles = [face.tile for face in who.forest.values()] + [t for t, _, _ in who.pile]
    starts = tiles.count(START_ID)
    if starts > 1:
        raise _bad(f"{where}.forest", "one start tile at most (forest and pile)", starts)
    who.resets = _int(raw["resets"], f"{where}.resets", 0, len(who.pile))
    cards = raw["cards"]
    if not isinstance(cards, list) or (game.solo and cards):
        raise _bad(f"{where}.cards", "a list of combo card values (none in solo)", cards)
    who.cards = [_int(v, f"{where}.cards[{i}]", 2, 5) for i, v in enumerate(cards)]
    return who


def _read_forest(
    game: GuardiansGame, who: PlayerState, where: str, forest: Any, places: _Places
) -> None:
    """A player's ``forest`` into ``who``, in one piece."""
    top = max(game.catalogue)
    for f, item in _rows(forest, f"{where}.forest", "[row, col, tile, side]", 4):
        cell = _cell(item[:2], f)
        tile = _int(item[2], f"{f}.tile", 0, top)
        if item[3] not in ("forest", "mission"):
            raise _bad(f"{f}.side", '"forest" or "mission"', item[3])
        mission = item[3] == "mission"
        if cell in who.forest:
            raise _bad(f, "one tile per cell", item)
        if (tile == START_ID or game.tile(tile).colour is None) and not mission:
            raise _bad(f"{f}.side", '"mission" (this tile has no known forest side)', item[3])
        places.place(tile, f)
        who.forest[cell] = Face(tile, mission)
    if not who.forest or not is_connected(who.forest):
        raise _bad(f"{where}.forest", "a non-empty forest in one piece", forest)


def _rows(value: Any, field: str, shape: str, size: int) -> Iterator[tuple[str, list[Any]]]:
    """Each row of the list ``value`` (the state field ``field``) with its field name, each a
    list of ``size`` entries (``shape`` says which)."""
    if not isinstance(value, list):
        raise _bad(field, f"a list of {shape}", value)
    for i, row in enumerate(value):
        f = f"{field}[{i}]"
        if not isinstance(row, list) or len(row) != size:
            raise _bad(f, shape, row)
        yield f, row


def _read_pawns(game: GuardiansGame, who: PlayerState, where: str, pawns: Any) -> None:
    """A player's ``pawns`` into ``who``: each on a mission tile of its own, entering in order
    with 2-4 players."""
    if not isinstance(pawns, list) or len(pawns) != PAWNS:
        raise _bad(f"{where}.pawns", f"a list of {PAWNS} cells or nulls", pawns)
    for p, cell_raw in enumerate(pawns):
        if cell_raw is None:
            continue
        cell = _cell(cell_raw, f"{where}.pawns[{p}]")
        face = who.forest.get(cell)
        if face is None or not face.mission or cell in who.pawns:
            raise _bad(f"{where}.pawns[{p}]", "a mission tile without another pawn", cell_raw)
        who.pawns[p] = cell
    if not game.solo and any(
        who.pawns[p] is None and who.pawns[p + 1] is not None for p in range(PAWNS - 1)
    ):
        raise _bad(f"{where}.pawns", "pawns entering in order (no gap before a pawn)", pawns)


def _read_pile(
    game: GuardiansGame, who: PlayerState, where: str, pile: Any, places: _Places
) -> None:
    """A player's points ``pile`` into ``who``."""
    top = max(game.catalogue)
    for f, entry in _rows(pile, f"{where}.pile", "[tile, pawn, round]", 3):
        tile = _int(entry[0], f"{f}.tile", 0, top)
        places.place(tile, f)
        pawn = _int(entry[1], f"{f}.pawn", 0, PAWNS - 1)
        who.pile.append((tile, pawn, _int(entry[2], f"{f}.round", 1, 10_000)))


def _read_tiles(
    game: GuardiansGame, state: GuardiansState, data: dict[str, Any], places: _Places
) -> None:
    """``pool``, ``bag``, ``discard`` and ``track``; then every tile of the set in one place."""
    n_set = len(game.tiles)
    state.pool = _ids(data["pool"], "pool", n_set, ordered=True)
    state.bag = _ids(data["bag"], "bag", n_set, ordered=True)
    state.discard = _ids(data["discard"], "discard", n_set, ordered=True)
    state.track = _ids(data["track"], "track", n_set, ordered=False)
    for field in ("pool", "bag", "discard", "track"):
        for i, tile in enumerate(getattr(state, field)):
            places.place(tile, f"{field}[{i}]")
    lost = [t for t in range(1, n_set + 1) if t not in places]
    if lost:
        raise _bad(
            "bag", f"every tile of the set somewhere (tile {lost[0]} is nowhere)", data["bag"]
        )
    if len(state.pool) > POOL_SIZE:
        raise _bad("pool", f"at most {POOL_SIZE} tiles", data["pool"])


def _read_supply(game: GuardiansGame, state: GuardiansState, supply: Any) -> None:
    """The combo cards left (none in solo); with the players' cards, the whole supply."""
    if not isinstance(supply, list) or len(supply) != len(COMBO_SUPPLY):
        raise _bad("supply", "a list of 4 card counts", supply)
    state.supply = [
        _int(v, f"supply[{i}]", 0, 0 if game.solo else COMBO_SUPPLY[i])
        for i, v in enumerate(supply)
    ]
    if not game.solo:
        for value in range(2, 6):
            taken = sum(who.cards.count(value) for who in state.people)
            if taken + state.supply[value - 2] != COMBO_SUPPLY[value - 2]:
                raise _bad("supply", f"the +{value} cards taken and left to add up", supply)


def _read_counters(game: GuardiansGame, state: GuardiansState, data: dict[str, Any]) -> None:
    """The turn's counters and flags, and the level tasks met."""
    state.current = _int(data["current"], "current", 0, game.players - 1)
    state.round = _int(data["round"], "round", 1, 10_000)
    state.draws_left = _int(data["draws_left"], "draws_left", 0, min(POOL_SIZE, len(state.bag)))
    state.reset_used = _flag(data["reset_used"], "reset_used")
    state.to_place = _int(data["to_place"], "to_place", 0, 2)
    state.mission_side = _flag(data["mission_side"], "mission_side")
    state.placed = None if data["placed"] is None else _cell(data["placed"], "placed")
    state.turn_missions = _int(data["turn_missions"], "turn_missions", 0, 10_000)
    state.end_triggered = _flag(data["end_triggered"], "end_triggered")
    tasks = data["tasks_done"]
    n_tasks = len(game.level.tasks) if game.level is not None else 0
    if not isinstance(tasks, list) or len(tasks) != n_tasks:
        raise _bad("tasks_done", f"a list of {n_tasks} true/false", tasks)
    state.tasks_done = [_flag(v, f"tasks_done[{i}]") for i, v in enumerate(tasks)]
    _check_rounds(game, state)


def _check_rounds(game: GuardiansGame, state: GuardiansState) -> None:
    """The round within the game's last, the points piles' rounds within the round, and the
    missions of the turn within those the player to move completed this round: a state past
    them (round 40 of a 12-round solo game, 10000 missions in a turn) loaded without a word.
    Solo, the game ends after round ``rounds()`` (12 plus the tasks met); with 2-4 players every
    round before the last places a tile from the bag (a turn grows by one tile at least, and an
    empty bag ends the game), so no round passes the set's tile count plus one. The turn's
    missions are in the pile, at this round (``turn_missions`` counts them, and is 0 between
    turns)."""
    if game.solo:
        met = sum(state.tasks_done)
        last, why = BASE_ROUNDS + met, f"{BASE_ROUNDS} + {met} level tasks met"
    else:
        last, why = (
            len(game.tiles) + 1,
            f"each round before it places one of the {len(game.tiles)} tiles",
        )
    if state.round > last:
        raise _bad("round", f"at most the game's last round ({last}: {why})", state.round)
    for i, who in enumerate(state.people):
        for j, (_, _, done) in enumerate(who.pile):
            if done > state.round:
                raise _bad(f"players[{i}].pile[{j}].round",
                           f"at most the state's round ({state.round})", done)  # fmt: skip
    me = state.people[state.current]
    now = sum(1 for _, _, done in me.pile if done == state.round)
    if state.turn_missions > now:
        raise _bad("turn_missions",
                   f"at most the missions players[{state.current}] completed this round ({now}: "
                   f"its pile's entries of round {state.round})", state.turn_missions)  # fmt: skip


def _read_backs(game: GuardiansGame, state: GuardiansState, data: dict[str, Any]) -> None:
    """The hidden-backs fields: every flipped tile of the set has its back, the others none,
    and ``unseen`` is what the tile set leaves."""
    n_set = len(game.tiles)
    raw = data["backs"]
    if not isinstance(raw, list):
        raise _bad("backs", "a list of [tile, mission]", raw)
    for i, item in enumerate(raw):
        _read_back(game, state, f"backs[{i}]", item)
    state.picked = None if data["picked"] is None else _int(data["picked"], "picked", 1, n_set)
    state.revealing = (
        None if data["revealing"] is None else _int(data["revealing"], "revealing", 1, n_set)
    )
    shown = set(state.backs)
    flipped = _flipped(state, n_set)
    if shown != flipped:
        odd = sorted(shown ^ flipped)[0]
        raise _bad("backs", f"the backs of the flipped tiles only (tile {odd})", raw)
    if data["unseen"] != unseen_multiset(state):
        raise _bad("unseen", "the missions the tile set leaves unseen", data["unseen"])
    _check_flip(state)


def _read_back(game: GuardiansGame, state: GuardiansState, f: str, item: Any) -> None:
    """One entry of ``backs`` (``f`` its name) into the state: a ``[tile, mission]`` after the
    tiles before it, the mission one its face still has unseen."""
    if not isinstance(item, list) or len(item) != 2 or not isinstance(item[1], str):
        raise _bad(f, "[tile, mission]", item)
    tile = _int(item[0], f"{f}.tile", 1, len(game.tiles))
    if tile in state.backs or (state.backs and tile < max(state.backs)):
        raise _bad(f, "tiles in increasing order, each once", item)
    face = game.face_of(tile)
    codes = {game.back(u): u for u, _, _ in state.unseen_backs(face)}
    if item[1] not in codes:
        raise _bad(f"{f}.mission", f"a mission of face {face} still unseen", item[1])
    state.backs[tile] = codes[item[1]]
    state.known = dict(state.known) if state.known is game.catalogue else state.known
    state.known[tile] = state.known[tile].showing(item[1])


def _flipped(state: GuardiansState, n_set: int) -> set[int]:
    """The tiles of the set whose backs have shown: mission side up in a forest, in a pile, the
    tile ``take 1 tile`` flipped (not the one the reveal node still decides)."""
    flipped = {
        face.tile
        for who in state.people
        for face in who.forest.values()
        if face.mission and 1 <= face.tile <= n_set
    }
    flipped |= {t for who in state.people for t, _, _ in who.pile if 1 <= t <= n_set}
    if state.picked is not None and state.revealing != state.picked:
        flipped.add(state.picked)
    if state.revealing is not None:
        flipped.discard(state.revealing)
    return flipped


def _check_flip(state: GuardiansState) -> None:
    """Hidden backs: ``revealing`` and ``picked`` fit the phase (a tile flipped at the reveal
    node, the pool tile ``take 1 tile`` flipped while it is placed)."""
    if state.revealing is not None:
        if state.phase != Phase.REVEAL or state.revealing in state.backs:
            raise _bad("revealing", "a tile being flipped, at the reveal node", state.revealing)
        me = state.people[state.current]
        walked = any(
            cell is not None and me.forest[cell].tile == state.revealing for cell in me.pawns
        )
        if state.revealing != state.picked and not walked:
            raise _bad("revealing", "the picked tile or a pawn's new tile", state.revealing)
    elif state.phase == Phase.REVEAL:
        raise _bad("revealing", "the tile being flipped at the reveal node", None)
    if state.picked is not None:
        if state.picked not in state.pool or not state.mission_side:
            raise _bad("picked", "a pool tile taken mission side up", state.picked)
        if state.phase not in (Phase.REVEAL, Phase.PLACE):
            raise _bad("picked", "null outside the flip of `take 1 tile`", state.picked)
    elif state.phase == Phase.PICK and not state.mission_side:
        raise _bad("mission_side", "true while picking the tile to flip", False)


def _check_drawing(state: GuardiansState, drawing: bool) -> None:
    """``draws_left`` counts the draws that fill the pool, exactly while drawing: the rules draw
    until the pool is full or the bag empty, so more would be a node with no legal action (the
    search's RuntimeError) and fewer one the rules never reach."""
    if drawing != (state.draws_left > 0):
        raise _bad("draws_left", "above 0 exactly while drawing", state.draws_left)
    room = min(POOL_SIZE, len(state.pool) + len(state.bag))
    if drawing and len(state.pool) + state.draws_left != room:
        expected = room - len(state.pool)
        raise _bad("draws_left", f"{expected} while drawing into this pool", state.draws_left)


def _check_phase(game: GuardiansGame, state: GuardiansState, phase_enum: Any) -> None:
    """The phase-dependent fields must describe a node the rules can reach."""
    phase = state.phase
    me = state.people[state.current]
    _check_drawing(state, phase == phase_enum.DRAW)
    if phase == phase_enum.TRACK and (not game.solo or not state.bag):
        raise _bad("phase", "track only in solo with tiles in the bag", "track")
    if not state.bag and not state.end_triggered:
        raise _bad(
            "end_triggered", "true once the bag is empty (its last tile ends the game)", False
        )
    if game.open_backs and phase in (phase_enum.PICK, phase_enum.REVEAL):
        raise _bad("phase", "no flip node with open backs", phase.name.lower())
    _check_pawn_phase(game, state, me, phase_enum)
    _check_growth(game, state, phase_enum)


def _check_pawn_phase(game: GuardiansGame, state: GuardiansState, me: Any, phase_enum: Any) -> None:
    """A pawn choice (solo only): before any pawn stands, or for the new mission tile (``me``:
    the player to move)."""
    phase = state.phase
    if phase in (phase_enum.START_PAWN, phase_enum.PAWN) and not game.solo:
        raise _bad("phase", "a pawn choice only in solo", phase.name.lower())
    if phase == phase_enum.START_PAWN and any(p is not None for p in me.pawns):
        raise _bad("phase", "start_pawn only before any pawn stands", "start_pawn")
    if phase == phase_enum.PAWN:
        face = me.forest.get(state.placed) if state.placed is not None else None
        if face is None or not face.mission or state.placed in me.pawns or not me.reserve():
            raise _bad("placed", "the new mission tile waiting for a pawn", state.placed)
    elif state.placed is not None:
        raise _bad("placed", "null outside the pawn choice", state.placed)


def _check_growth(game: GuardiansGame, state: GuardiansState, phase_enum: Any) -> None:
    """The growth fields (tiles to place, the flipped mission side) match the phase."""
    phase = state.phase
    growing = (phase_enum.PLACE, phase_enum.PICK)
    if phase in growing or (phase == phase_enum.REVEAL and state.picked is not None):
        if state.to_place < 1 or not state.pool:
            raise _bad("to_place", "1 or 2 with tiles in the pool while placing", state.to_place)
        hidden_flip = state.mission_side and not game.open_backs
        if phase == phase_enum.PLACE and hidden_flip and state.picked is None:
            raise _bad("picked", "the flipped tile while placing it", None)
    elif phase != phase_enum.PAWN and (state.to_place or state.mission_side):
        raise _bad("to_place", "0 (and mission_side false) outside growth", state.to_place)
    if phase == phase_enum.GROW and not state.pool:
        raise _bad("pool", "tiles to take at the growth step", [])
