"""A table session kept by the server (``/v1/table/*``): the game for hidden information.

The stateless table sends every action, chance outcomes included, so the page would hold every
seat's draws. A session keeps the game on the server instead: one human seat (or several, in
hot seat) against engine seats at a chosen agent. The server samples chance and plays the engine
seats; every answer carries only the view of the human seat concerned (:func:`seat_view`): the
seat's observation and information state where the game hides things, its legal moves when it
is to move. The full record (every action) is given only once the game is over.

The sessions live in the service's event-loop process (:class:`Sessions`: bounded, the least
recently used dropped for a new one only once idle, else the new one refused; unguessable ids);
each step runs as a job in a worker process (:func:`advance_job`), which replays the session's
actions, applies the human's move, then plays on until a human seat is to move or the game ends.
Chance and the engine seats are seeded from the session's seed and the ply, so a session is
reproducible from its record.

A step keeps to the session's ``seconds`` (as a hint does): every engine search stops by the
step's deadline (:func:`solver.search.limit.search_deadline`) and plays the best it has, and once
the deadline has passed no further engine decision starts: the answer says the engines are
still to move (``enginePending``) and ``notes`` say which move was cut; the next ``view`` goes
on. A step always makes one engine decision at least, so repeated views finish the turn.
"""

from __future__ import annotations

import contextlib
import json
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from solver.game import LabelReader
from solver.hint.errors import HintError
from solver.labels import HIDDEN_LABEL, shown_label
from solver.rng import SplitMix64, derive_seed, sample_outcome

if TYPE_CHECKING:
    from solver.game import Game, HiddenInformationState, State
    from solver.spec import GameSpec

__all__ = [
    "MAX_SESSIONS",
    "MAX_SESSION_BYTES",
    "SESSION_IDLE_SECONDS",
    "Session",
    "Sessions",
    "SessionsFull",
    "advance_job",
    "line_job",
    "seat_view",
    "takeback_job",
    "takeback_point",
]

MAX_SESSIONS = 256
"""Sessions kept at once: past it the least recently used is dropped if it has been idle
:data:`SESSION_IDLE_SECONDS`, else the new session is refused (:class:`SessionsFull`)."""

SESSION_IDLE_SECONDS = 15 * 60.0
"""How long a session must have gone unused (no request naming it) before a new session may
take its place: a session in use is never dropped for another (256 starts from one client
dropped every other user's game), a player who has left for a quarter of an hour may be. A
session is never dropped for its age alone, only to make room."""

MAX_SESSION_BYTES = 64 * 1024 * 1024
"""The bytes of the sessions' options kept at once, as JSON (the least recently used session is
dropped past it): a session keeps its game's options, which may hold a file's whole text (a dog
forest's comments, a tile set's name) up to a request body's size, so the count alone let 256
sessions of 1 MiB each hold 280 MB of the server's main process."""

MAX_ENGINE_PLIES = 2_000
"""The most actions one step plays for the engine seats and chance (a bound, never reached by a
finite game's turn)."""


@dataclass
class Session:
    """One table session: the game, the human seats, the engines' agent, the actions so far."""

    game: str
    options: dict[str, Any]
    humans: list[int]
    agent: str
    iterations: int | None
    seed: int
    actions: list[int] = field(default_factory=list)
    over: bool = False
    seconds: float | None = None
    """The seconds of one step's engine play (``None``: unbounded, as in-process tests play)."""
    left: bool = False
    """Its unfinished record went out where the game hides cards (``/v1/table/record`` with
    ``unfinished``): every seat's cards are known, so no move, take back, view, hint or line
    follows."""
    view_seconds: float | None = None
    """The seconds its last step spent after its last engine search (the labels of that move
    and drawing the view; ``None`` before its first step): the next step keeps that much, and a
    margin, from its engines' searches (:func:`view_reserve`)."""
    engines_pending: bool = False
    """The last step ended with an engine seat still to move (its ``enginePending``): no hint
    or line until a view lets the engines play (the mover is an engine seat, whose hand a hint
    from its view would show)."""

    def as_job(self) -> dict[str, Any]:
        return {"game": self.game, "options": self.options, "humans": self.humans,
                "agent": self.agent, "iterations": self.iterations, "seed": self.seed,
                "actions": list(self.actions), "seconds": self.seconds,
                "viewSeconds": self.view_seconds}  # fmt: skip

    def record(self) -> dict[str, Any]:
        """The game record (``forest GAME review`` reads it), with ``finished`` as ``play
        --record`` writes it (an unfinished one: ``"returns": null`` too, as there)."""
        record = {"game": self.game, "options": self.options, "seed": self.seed,
                  "actions": list(self.actions), "humans": self.humans, "agents": self.agent,
                  "finished": self.over}  # fmt: skip
        if not self.over:
            record["returns"] = None
        return record


class SessionsFull(HintError):
    """No room for a new session: every session kept was used within
    :data:`SESSION_IDLE_SECONDS` (``too_many_sessions``, 503); ``retry_after``: the whole seconds
    until the least recently used one has been idle that long, unless it is used meanwhile."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(f"the server keeps as many table sessions as it can, all in use: "
                         f"retry after {retry_after} s (a session unused for "
                         f"{SESSION_IDLE_SECONDS:g} s may then make room)", None,
                         "too_many_sessions")  # fmt: skip
        self.retry_after = retry_after

    def __reduce__(self):
        return (SessionsFull, (self.retry_after,))


class Sessions:
    """The sessions of one service (in its event-loop process), bounded in number and in the
    bytes of their options (:data:`MAX_SESSIONS`, :data:`MAX_SESSION_BYTES`). Room is made by
    dropping the least recently used sessions idle for ``idle_seconds``
    (:data:`SESSION_IDLE_SECONDS`); where none is, a new session is refused (:class:`SessionsFull`),
    never a session in use dropped. ``clock``: the seconds the idleness is counted in (tests
    pass their own)."""

    def __init__(
        self,
        capacity: int = MAX_SESSIONS,
        max_bytes: int = MAX_SESSION_BYTES,
        idle_seconds: float = SESSION_IDLE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.capacity = capacity
        self.max_bytes = max_bytes
        self.idle_seconds = idle_seconds
        self.clock = clock
        self.refused = 0
        self._kept: OrderedDict[str, Session] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._used: dict[str, float] = {}
        self._users: dict[str, int] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    @staticmethod
    def new_ident() -> str:
        """An unguessable session id."""
        return secrets.token_urlsafe(18)

    @staticmethod
    def size_of(session: Session) -> int:
        """The bytes of ``session``'s options as JSON (what :data:`MAX_SESSION_BYTES` bounds)."""
        return len(json.dumps(session.options, separators=(",", ":"), default=str))

    def check_room(self, session: Session) -> None:
        """Raise :class:`SessionsFull` if ``session`` could not be added now (a start asks
        before its first step, so a refusal costs no worker); drops nothing."""
        with self._lock:
            self._room(self.size_of(session), drop=False)

    def add(self, session: Session, ident: str | None = None) -> str:
        """Keep ``session`` under ``ident`` (default: a new id), dropping the least recently
        used sessions idle for :attr:`idle_seconds` past the capacity or the bytes (one alone
        is kept whatever its bytes); the id. :class:`SessionsFull` if the others are in use."""
        ident = ident or self.new_ident()
        size = self.size_of(session)
        with self._lock:
            if ident not in self._kept:
                self._room(size, drop=True)
            self._bytes += size - self._sizes.get(ident, 0)
            self._kept[ident] = session
            self._kept.move_to_end(ident)
            self._sizes[ident] = size
            self._used[ident] = self.clock()
        return ident

    @contextlib.contextmanager
    def using(self, ident: str) -> Iterator[None]:
        """While the block runs (a request's job on the session ``ident``: a step, a take back,
        a hint, a line), the session is in use whatever its idle time: never dropped to make
        room, and used until the block ends (a step may run longer than
        :attr:`idle_seconds`, as ``--max-seconds`` allows up to a day)."""
        with self._lock:
            self._users[ident] = self._users.get(ident, 0) + 1
        try:
            yield
        finally:
            with self._lock:
                left = self._users.pop(ident) - 1
                if left:
                    self._users[ident] = left
                if ident in self._used:  # the most recently used now, in order too
                    self._used[ident] = self.clock()
                    self._kept.move_to_end(ident)

    def _room(self, size: int, *, drop: bool) -> None:
        """Room for one more session of ``size`` bytes (the lock held): the least recently used
        sessions idle long enough dropped (``drop``) or counted as gone; :class:`SessionsFull`
        as soon as the least recently used left is in use."""
        now = self.clock()
        count, held = len(self._kept), self._bytes
        for ident in list(self._kept):  # least recently used first
            if count < self.capacity and held + size <= self.max_bytes:
                return
            idle = 0.0 if ident in self._users else now - self._used[ident]  # running: in use
            if idle < self.idle_seconds:
                self.refused += 1
                raise SessionsFull(max(1, math.ceil(self.idle_seconds - idle)))
            count, held = count - 1, held - self._sizes[ident]
            if drop:
                del self._kept[ident], self._used[ident]
                self._bytes -= self._sizes.pop(ident)

    def get(self, ident: str) -> Session:
        """The session ``ident``, now its most recently used (:class:`HintError`, code
        ``unknown_session``, if it ended or was dropped)."""
        with self._lock:
            session = self._kept.get(ident)
            if session is None:
                raise HintError("no such table session (it ended or was dropped: start a new "
                                "one)", "session", "unknown_session")  # fmt: skip
            self._kept.move_to_end(ident)
            self._used[ident] = self.clock()
            return session

    def __len__(self) -> int:
        with self._lock:
            return len(self._kept)


def _rng(seed: int, ply: int) -> SplitMix64:
    """The stream of the chance draw at ``ply`` of a session seeded ``seed``."""
    return SplitMix64(derive_seed(seed, ply))


def _sample(state: State, rng: SplitMix64) -> int:
    """A chance outcome by its probability: the library's one draw, on this session's stream."""
    return sample_outcome(state.chance_outcomes(), rng)


def _open(raw: dict[str, Any]) -> Any:
    from solver.hint.position import open_position
    from solver.hint.schema import PositionRequest

    request = PositionRequest.model_validate(
        {"game": raw["game"], "options": raw["options"], "actions": raw["actions"]}
    )
    return open_position(request, allow_paths=False)


def _check_seats(spec: GameSpec, game: Game, raw: dict[str, Any]) -> None:
    from solver.agents import make_agent

    n = game.num_players()
    humans = raw["humans"]
    if not humans or any(not 0 <= seat < n for seat in humans) or len(set(humans)) != len(humans):
        seats = "seat 0 (the game has one seat)" if n == 1 else f"distinct seats from 0 to {n - 1}"
        raise HintError(f"humans must be {seats}", "humans")
    # The agent is checked even when every seat is human: a misspelt name is the user's mistake
    # whether or not an engine seat would use it.
    try:
        make_agent(raw["agent"], game, seed=0, iterations=raw["iterations"])
    except (ValueError, KeyError) as exc:
        raise HintError(f"agent: {exc}", "agent") from None
    except Exception as exc:  # a solver.errors class: the agent is not offered here
        from solver.errors import SolverError

        if isinstance(exc, SolverError):
            raise HintError(f"agent: {exc}", "agent") from None
        raise


@dataclass
class _Step:
    """One step's engine play against its budget: the deadline (``time.monotonic()``; ``None``:
    unbounded), the engine decisions made, the notes on what the budget cut."""

    seconds: float | None
    deadline: float | None
    decisions: int = 0
    notes: list[str] = field(default_factory=list)
    searched: float | None = None
    """When its last engine decision ended (on :data:`_clock`; ``None``: none made)."""

    def out_of_time(self) -> bool:
        """No further engine decision starts: the deadline has passed and this step has made
        one at least (so that repeated steps always finish a turn)."""
        return (
            self.deadline is not None and self.decisions > 0 and time.monotonic() >= self.deadline
        )


def _engine_move(raw: dict[str, Any], game: Game, state: State, ply: int, step: _Step) -> int:
    """The engine seat's move at ``ply``, its searches bounded by the step's deadline; a move
    chosen as the deadline passed is noted (its search stopped there with what it had)."""
    from solver.agents import make_agent
    from solver.search.limit import search_deadline

    seat = state.current_player()
    agent = make_agent(raw["agent"], game, seed=raw["seed"] * 100_003 + ply,
                       iterations=raw["iterations"])  # fmt: skip
    with search_deadline(step.deadline):
        action = int(agent(state))
    step.decisions += 1
    if step.deadline is not None and time.monotonic() >= step.deadline:
        step.notes.append(
            f"seat {seat}'s move at ply {ply} was chosen as the step's {step.seconds:g} s ran "
            "out (a search stops at the budget and plays the best move it has found)"
        )
    return action


def _played(
    state: State, game_name: str, action: int, humans: list[int], ply: int, reader: LabelReader
) -> dict[str, Any]:
    """The entry of the step's ``played`` for ``action`` (about to be applied at ``ply``): who
    played it (-1: chance) and its label as every human seat may see it (``play --human``'s
    :func:`solver.labels.shown_label`; hidden from one human seat, it is hidden: in hot seat
    the list is read by all), read on ``reader``'s label twin (the caller keeps it in step)."""
    twin = reader.reader()
    labels = {shown_label(state, action, seat, game_name, twin) for seat in humans}
    label = labels.pop() if len(labels) == 1 else HIDDEN_LABEL
    return {"ply": ply, "player": -1 if state.is_chance_node() else state.current_player(),
            "label": label}  # fmt: skip


def _play_on(
    raw: dict[str, Any],
    game: Game,
    state: State,
    actions: list[int],
    step: _Step,
    played: list[dict[str, Any]] | None = None,
    reader: LabelReader | None = None,
) -> bool:
    """Chance and the engine seats from ``state`` (``actions`` grows, and ``played`` with each
    action as the human seats may see it) until a human seat is to move or the game ends
    (``False``), or the step's time is out with an engine seat to move (``True``: the engines
    are still to move)."""
    humans = raw["humans"]
    reader = reader or LabelReader(state)
    for _ in range(MAX_ENGINE_PLIES):
        if state.is_terminal():
            return False
        if state.is_chance_node():
            action = _sample(state, _rng(raw["seed"], len(actions)))
        elif state.current_player() in humans:
            return False
        elif step.out_of_time():
            step.notes.append(
                f"the step's {step.seconds:g} s ran out with seat {state.current_player()} to "
                "move: the engine seats go on at the next view (/v1/table/view)"
            )
            return True
        else:
            action = _engine_move(raw, game, state, len(actions), step)
            step.searched = _clock()
        if played is not None:
            played.append(_played(state, raw["game"], action, humans, len(actions), reader))
        state.apply_action(action)
        reader.follow(action)
        actions.append(action)
    return False


def advance_job(
    raw: dict[str, Any], move: int | None, admitted: float | None = None
) -> dict[str, Any]:
    """One step of a session: replay ``raw["actions"]``, apply the human's ``move`` (when given,
    checked legal for a human seat to move), then play chance and the engine seats until a human
    seat is to move, the game ends or the step's ``raw["seconds"]`` run out, counted from
    ``admitted`` (the service's admission, ``time.monotonic()``; ``None``: now): the wait for a
    worker, opening the position, labelling and the view count, and the engines' searches stop
    :func:`view_reserve` before the deadline to leave the view its time (``seconds`` ``None``
    or absent: no bound). Answers ``{"actions": [...], "view": {...}}``:
    the actions stay on the server, the view goes to the page, with ``enginePending`` (the
    engines are still to move), ``notes`` (what the budget cut), ``stepSeconds`` and ``played``:
    the step's actions (the human's move, chance, the engine seats') as ``{"ply", "player",
    "label"}``, each label as the human seats may see it (no action id: a hidden card's id would
    name it), so the page can list what the engines did."""
    seconds = raw.get("seconds")
    step = _Step(seconds, _search_deadline(seconds, admitted, raw.get("viewSeconds")))
    opened = _open(raw)
    spec, game, state = opened.spec, opened.game, opened.state
    humans = list(raw["humans"])
    actions = list(opened.actions)
    if not actions:
        _check_seats(spec, game, raw)
    if move is not None:
        if state.is_terminal() or state.is_chance_node() or state.current_player() not in humans:
            raise HintError("it is not a human seat's turn", "action", "illegal_action")
        if move not in state.legal_actions():
            raise HintError(f"action {move} is not legal here", "action", "illegal_action")
    reader = LabelReader(state)
    played: list[dict[str, Any]] = []
    if move is not None:
        played.append(_played(state, spec.name, move, humans, len(actions), reader))
        state.apply_action(move)
        reader.follow(move)
        actions.append(move)
    pending = _play_on(raw, game, state, actions, step, played, reader)
    drawing = _clock()
    view = seat_view(spec, game, state, humans, len(actions), actions)
    view.update(enginePending=pending, notes=step.notes, stepSeconds=seconds, played=played)
    tail = _clock() - (drawing if step.searched is None else min(step.searched, drawing))
    return {"actions": actions, "view": view, "viewSeconds": tail}


VIEW_RESERVE_SECONDS = 0.25
"""The most of a step's seconds kept from the engines' searches for the work after them: the
labels of what they played and the seat's view (the compiled Trial's 4-player view, its picture
drawn, takes about 0.1 s of CPU)."""

VIEW_RESERVE_SHARE = 0.25
"""The largest share of a step's seconds kept for that work (a short step keeps most of its
time for its searches)."""


VIEW_MARGIN = 1.5
"""The reserve's margin over the last view's measured cost (a view costs about what the last one
of its session did: the same game, the same tile set, one more move on the table)."""

_clock = time.monotonic
"""The clock a step's view is timed on (a test's fake clock in its place)."""


def view_reserve(seconds: float, last_view: float | None = None) -> float:
    """The seconds at the end of a step of ``seconds`` kept from the engines' searches: a share
    of them (at most :data:`VIEW_RESERVE_SECONDS`), or, where the session's last step spent
    longer after its searches (``last_view``: its measured seconds, the last labels and the
    view; a slow picture, a loaded machine), :data:`VIEW_MARGIN` times that; never more than
    the step's seconds (then each engine seat still makes its one decision, as a step whose
    wait took them all)."""
    fixed = min(VIEW_RESERVE_SECONDS, VIEW_RESERVE_SHARE * seconds)
    measured = 0.0 if last_view is None else VIEW_MARGIN * max(0.0, last_view)
    return min(seconds, max(fixed, measured))


def _search_deadline(
    seconds: float | None, admitted: float | None, last_view: float | None = None
) -> float | None:
    """When a step's engine searches stop (``time.monotonic()``; ``None``: unbounded): the
    step's seconds from its admission (now, if ``None``; a reading later than now is read as
    now), less :func:`view_reserve` (``last_view``: the session's last view's seconds)."""
    if seconds is None:
        return None
    from solver.hint.engine import RequestClock

    return RequestClock.since(admitted).deadline(seconds) - view_reserve(seconds, last_view)


def _seat(state: State, humans: list[int]) -> int:
    to_move = state.current_player()
    return to_move if to_move in humans else humans[0]


def seat_view(
    spec: GameSpec,
    game: Game,
    state: State,
    humans: list[int],
    ply: int,
    actions: list[int] | None = None,
) -> dict[str, Any]:
    """What the human seat concerned (the one to move, else the first) may see: where the game
    hides things, its observation and information state and the seat's picture its table view
    gives (no text of the whole state); else the picture of the line ``actions`` played and the
    text view; its legal moves when it is to move. Nothing in it depends on what the seat cannot
    see (``tests/hint/test_table_session.py`` redeals the rest and compares)."""
    seat = _seat(state, humans)
    to_move = state.current_player()
    terminal = state.is_terminal()
    mine = not terminal and to_move == seat
    moves = [{"action": a, "label": state.action_to_string(a)} for a in state.legal_actions()]
    view: dict[str, Any] = {
        "game": spec.name,
        "seat": seat,
        "humans": humans,
        "players": game.num_players(),
        "ply": ply,
        "currentPlayer": to_move,
        "terminal": terminal,
        "returns": state.returns() if terminal else None,
        "scores": spec.final_scores(state),
        "moves": moves if mine else [],
        "valueKind": spec.value_kind,
        "hidden": bool(spec.hidden_information),
        "drawsLine": bool(spec.svg_line or spec.svg_point),
    }
    declared = spec.table_view(game, state, seat) if spec.table_view else {}
    view["panels"] = declared.get("panels", [])
    view["targets"] = declared.get("targets", []) if mine else []
    if spec.hidden_information:
        hidden = cast("HiddenInformationState", state)
        view["observation"] = hidden.observation(seat)
        view["informationState"] = hidden.information_state_string(seat)
        view["svg"] = declared.get("svg")  # the seat's picture, where the game draws one
        view["text"] = None
    else:
        view["observation"] = None
        view["informationState"] = None
        played = list(actions or [])  # the picture of the line (the dog's pencilled trail)
        view["svg"] = spec.render_svg(game, state, played) if spec.render_svg else None
        view["text"] = spec.render_text(game, state) if spec.render_text is not None else None
    return view


def takeback_point(raw: dict[str, Any]) -> int:
    """How many of the session's actions stay when a human takes a move back: up to (not
    including) the last action a human seat chose; the rolls and draws before it stay."""
    opened = _open({**raw, "actions": []})
    state = opened.state
    humans = set(raw["humans"])
    last = -1
    for index, action in enumerate(raw["actions"]):
        if not state.is_chance_node() and state.current_player() in humans:
            last = index
        state.apply_action(action)
    if last < 0:
        raise HintError("no move of a human seat to take back", "session", "illegal_action")
    return last


def takeback_job(raw: dict[str, Any]) -> dict[str, Any]:
    """:func:`takeback_point` as a worker's job: ``{"keep": actions kept}``."""
    return {"keep": takeback_point(raw)}


def _seat_prefix(state: State, pv: list[int]) -> list[int]:
    """The seat to move's consecutive decisions at the head of ``pv``, each checked legal; the
    rest is dropped unplayed: checking another seat's action (or a draw) against the true state
    would tell whether that seat holds the card (``pv: [end turn, play X]``)."""
    seat, walker, kept = state.current_player(), state.clone(), []
    for index, action in enumerate(pv):
        if walker.is_terminal() or walker.is_chance_node() or walker.current_player() != seat:
            break
        if action not in walker.legal_actions():
            from solver.hint.lines import illegal_line

            raise illegal_line(index, action)
        walker.apply_action(action)
        kept.append(action)
    return kept


def line_job(raw: dict[str, Any], pv: list[int]) -> dict[str, Any]:
    """The hinted line on the picture of a session's position, for the human seat to move:
    ``{"pvSvg", "pvPoints"}`` (:mod:`solver.hint.lines`). Where the game hides things only the
    seat's own consecutive decisions of ``pv`` are drawn, so the picture tells no more than the
    hint's own answer."""
    from solver.hint.lines import hinted_svg, pv_points

    opened = _open(raw)
    spec, game, state = opened.spec, opened.game, opened.state
    if state.is_terminal() or state.is_chance_node() or state.current_player() not in raw["humans"]:
        raise HintError("no human seat is to move", "session", "illegal_action")
    kept = _seat_prefix(state, pv) if spec.hidden_information else list(pv)
    return {"pvSvg": hinted_svg(spec, game, state, kept),
            "pvPoints": pv_points(spec, game, state, kept)}  # fmt: skip
