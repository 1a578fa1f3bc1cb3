"""Game records and their review, the way chess sites review a game.

A game record is ``{"game", "options", "seed", "actions": [...]}`` (``forest GAME play --record
FILE`` writes one; ``labels``, ``agents`` and ``engine`` may ride along). :func:`review_record`
replays it and, at every decision, asks the hint engine (:func:`solver.hint.engine.answer`, so
caps, exact search and hidden information work as for a hint) for the value of every legal move:
the chosen move's value against the best move's, the loss between them, and a mark when the loss
reaches a threshold of :data:`THRESHOLDS` (the value lost, in the game's value unit: a win
probability or an expected score scaled to [0, 1]):

==============  ======
mark            loss ≥
==============  ======
``inaccuracy``  0.05
``mistake``     0.10
``blunder``     0.20
==============  ======

The curve holds the position's value after every action (chance outcomes too), from the view of
the player to move at each decision (player 0 at chance nodes), and every seat's value where the
search knows them (``values``); :func:`write_plot` draws it. Each decision also gets Lichess's
accuracy of its loss (:func:`accuracy_of`), averaged per player in ``accuracy``. A review may cover
a range of plies (``start``/``stop``), so a long game is reviewed piece by piece.

>>> record = {"game": "dog", "options": {"forest": "dog/another-dog"}, "seed": 0,
...           "actions": [10, 1]}
>>> review = review_record(record, exact=True)
>>> [(d["label"], d["mark"]) for d in review["decisions"]]
[('E', 'blunder')]
>>> round(review["decisions"][0]["loss"], 6)
0.555556
"""

from __future__ import annotations

import textwrap
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.agent_first import ALIKE
from solver.errors import FormatError, OptionError, path_said
from solver.files import parse_json
from solver.review_accuracy import (
    accuracy_of,
    accuracy_title,
    closing_notes,
    fall_note,
    lost_note,
    mean_accuracy,
    undecided_note,
)
from solver.review_claims import claims_problem, labels_note, replayed_labels, returns_note
from solver.review_noise import (
    MORE_SEARCHES,
    loss_error,
    needs_second_look,
    pooled_reply,
    within_noise,
)
from solver.review_notes import folded_search_notes
from solver.review_walk import Seen, Walk, value_for

if TYPE_CHECKING:
    from solver.game import State
    from solver.hint.position import OpenedPosition
    from solver.search.coverage import ChanceCoverage
    from solver.spec import GameSpec

__all__ = [
    "THRESHOLDS",
    "accuracy_of",
    "accuracy_title",
    "closing_notes",
    "fall_note",
    "finished_note",
    "game_record",
    "lost_note",
    "mark_of",
    "mean_accuracy",
    "read_record",
    "review_record",
    "seat_curve",
    "undecided_note",
    "values_kind",
    "write_plot",
]

THRESHOLDS: dict[str, float] = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.20}
"""The loss (value given away by a move) from which a move gets each mark."""

_TOLERANCE = 1e-9


def mark_of(loss: float | None) -> str | None:
    """The mark of a move that gave away ``loss`` (``None``: no mark, or an unknown loss)."""
    if loss is None:
        return None
    found = None
    for name, threshold in THRESHOLDS.items():  # ascending
        if loss >= threshold - _TOLERANCE:
            found = name
    return found


def game_record(
    game: str,
    options: Mapping[str, Any],
    seed: int,
    actions: Sequence[int],
    **extra: Any,
) -> dict[str, Any]:
    """A game record (the shape :func:`review_record` reads)."""
    return {"game": game, "options": dict(options), "seed": seed, "actions": list(actions),
            **extra}  # fmt: skip


def read_record(path: str) -> dict[str, Any]:
    """A game record read from a JSON file (an :class:`OptionError` naming what is wrong)."""
    from solver.cmdkit import read_text_file

    text = read_text_file(path, "game record")
    try:
        record = parse_json(text, "a JSON game record")
    except FormatError as exc:  # the start of a file that is no JSON is never quoted
        shown = exc.in_file(path)
        detail = FormatError(shown.expected, line=shown.line, column=shown.column,
                             found=shown.found)  # fmt: skip
        raise OptionError(f"{path_said(path)}: not a JSON game record ({detail})") from None
    if not isinstance(record, dict) or not isinstance(record.get("game"), str):
        raise OptionError(
            f'{path_said(path)}: a game record is an object with "game", "options", "actions"'
        )
    if not isinstance(record.get("actions", []), list):
        raise OptionError(f'{path_said(path)}: "actions" must be a list')
    return record


class RecordError(OptionError):
    """A record whose game, state or actions cannot be replayed: the message (``actions.N: ...``),
    the field at fault and the hint engine's code (``illegal_action``, ``bad_state``...)."""

    def __init__(self, message: str, field: str | None, code: str):
        super().__init__(message)
        self.field = field
        self.code = code

    def __reduce__(self):
        return (RecordError, (str(self), self.field, self.code))


def open_record(
    base: Mapping[str, Any], actions: Sequence[Any], *, allow_paths: bool
) -> OpenedPosition:
    """The record's game and the position its ``actions`` reach (ids or labels) from its start
    or saved ``state`` (a :class:`RecordError` naming what is wrong). The review replays the
    whole record so once before any search: an invalid record is refused at once, not after the
    positions before its fault were searched; its ``actions`` are then the ids (labels read
    once: a compiled engine may decode its state to read one)."""
    from types import SimpleNamespace

    from solver.hint.errors import HintError
    from solver.hint.position import open_position

    request = SimpleNamespace(game=base["game"], options=base.get("options", {}),
                              state=base.get("state"), engine=base.get("engine"),
                              actions=list(actions))  # fmt: skip
    try:
        return open_position(request, allow_paths=allow_paths)
    except HintError as exc:
        raise RecordError(str(exc), exc.field, exc.code) from None


def _ask(base: dict[str, Any], position: OpenedPosition, ident: str, **kw: Any) -> dict[str, Any]:
    """The hint engine's answer at ``position`` (the request ``base`` with the review's id)."""
    from solver.hint.engine import answer

    reply = answer({**base, "id": ident}, position=position, **kw)
    if "error" in reply:
        # the record's actions were checked before (open_record) and are not in the request:
        # the hint's field and code, which are the review's own (exact, limit, options...):
        # an exact review of a game with no exact search was invalid_request, a hint's unsupported
        raise RecordError(f"cannot review this record: {reply['error']}",
                          reply.get("field"), reply.get("code") or "invalid_request")  # fmt: skip
    return reply


def _position_budget(
    iterations: int | None,
    seconds: float | None,
    deadline: float | None,
    left_positions: int,
) -> dict[str, Any]:
    """One position's ``limit``: the asked budget, and a fair share of the whole review's time
    left (never below :data:`MIN_POSITION_SECONDS`). The share only bounds the budget: a review
    asked neither iterations nor seconds gives every position the game's default iterations
    (:func:`review_record`), not a search for the whole share."""
    limit: dict[str, Any] = {}
    if iterations is not None:
        limit["iterations"] = iterations
    share = None
    if deadline is not None:
        share = max(MIN_POSITION_SECONDS, (deadline - time.monotonic()) / max(1, left_positions))
    if seconds is not None or share is not None:
        limit["seconds"] = min(s for s in (seconds, share) if s is not None)
    return limit


MIN_POSITION_SECONDS = 1e-3
"""The least time a position of a review gets (its search still values every move once)."""


def review_record(
    record: Mapping[str, Any],
    *,
    iterations: int | None = None,
    seconds: float | None = None,
    exact: bool | None = None,
    caps: Any = None,
    allow_paths: bool = False,
    total_seconds: float | None = None,
    start: int = 0,
    stop: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    memory_mb: float | None = None,
    since: float | None = None,
) -> dict[str, Any]:
    """Review a game record: every decision's loss and mark, and the value curve (module doc).

    ``exact``: ``None`` values each position exactly where it fits (the hint engine's rule:
    the game offers it, within the memory cap and half of the position's seconds), else by MCTS;
    ``True`` insists (a fallback is noted); ``False`` uses MCTS with ``iterations`` and/or
    ``seconds`` a position. ``total_seconds`` bounds the whole review: each position gets a
    fair share of the time left, and a review that runs out stops there (``complete`` false,
    ``reviewed`` the plies done). ``start``/``stop``: review only the positions at plies
    ``start..stop`` (the curve's points there, the decisions of plies ``start+1..stop``; ``stop``
    defaults to the record's end), so a long game is reviewed a range at a time. A record with a
    ``"state"`` (a saved position) is replayed from it. Raises :class:`OptionError` for a bad
    record. Neither ``iterations`` nor ``seconds``: a position gets the game's
    :attr:`~solver.spec.GameSpec.review_iterations` (else a hint's default); the review's
    ``limit`` says the budget a position had. ``progress(done, total)`` is told after each
    position valued. The record is replayed once (:class:`solver.review_walk.Walk`); a forced
    position (a single move) is not searched: its value is the next searched position's
    (``forced``, ``valueFromPly``; docs/hint-engine.md). ``memory_mb``: each position's memory
    cap, as a hint's ``limit.memoryMb`` (the review's ``limit`` says it where given).
    ``since``: when ``total_seconds`` began (``time.monotonic()``; ``None``: now; a reading
    later than now is read as now): the service's admission of the request, the command's start.
    """
    from solver.hint.engine import Caps

    _check_arguments(record, exact, total_seconds, start, stop, since)
    started = time.monotonic()
    spec, base, actions, last = _review_request(record, exact=exact, start=start, stop=stop)
    caps = caps or Caps()
    ended = open_record(base, actions, allow_paths=allow_paths)  # checked whole, before a search
    budget = _Budget.asked(spec, caps, iterations, seconds, memory_mb, total_seconds,
                           began=started if since is None else min(since, started))  # fmt: skip
    opened = open_record(base, ended.actions[:start], allow_paths=allow_paths)
    found = _Found()
    search = _searcher(base, opened, budget, last, found, caps=caps, allow_paths=allow_paths)
    walk = Walk(opened.state, ended.actions, start, search)
    replayed = _replay(walk, last, budget, _teller(progress, start, last), found, search)
    report = _report(spec, base["game"], replayed, start, last, started)
    report["finished"] = ended.state.is_terminal()
    said = _record_notes(record, base, actions, ended, allow_paths=allow_paths)
    _close(report, said, spec.value_kind, budget)
    return report


@dataclass(frozen=True)
class _Budget:
    """A review's budget: each position's ``iterations`` and ``seconds`` as asked, the whole
    review's ``deadline`` (``time.monotonic()``, or ``None``) and each search's memory cap;
    ``total_seconds``: the whole review's seconds the deadline was set from (its words)."""

    iterations: int | None
    seconds: float | None
    deadline: float | None
    memory_mb: float | None
    total_seconds: float | None = None

    @classmethod
    def asked(
        cls,
        spec: GameSpec,
        caps: Any,
        iterations: int | None,
        seconds: float | None,
        memory_mb: float | None,
        total_seconds: float | None,
        *,
        began: float,
    ) -> _Budget:
        """The budget :func:`review_record` was asked, its ``total_seconds`` counted from
        ``began``; neither ``iterations`` nor ``seconds``: the game's review iterations (else a
        hint's default) within the ``caps``, said in the review (``iterations``)."""
        if iterations is None and seconds is None:
            default = spec.review_iterations or caps.default_iterations
            iterations = min(default, caps.max_iterations)
        deadline = None if total_seconds is None else began + total_seconds
        return cls(iterations, seconds, deadline, memory_mb, total_seconds)

    def ran_out(self, reviewed: int, last: int) -> str | None:
        """The note of a review past its deadline, stopped after ply ``reviewed`` of ``last``
        (``None`` while it has time left)."""
        if self.deadline is None or time.monotonic() < self.deadline:
            return None
        return (f"the review stopped after {reviewed} of {last} plies: its "
                f"{self.total_seconds:g} s ran out")  # fmt: skip

    def limit(self, ply: int, last: int) -> dict[str, Any]:
        """The ``limit`` of the search at ``ply`` (the range's last ply: ``last``)."""
        # a search past the range (a forced position's, ahead) has the last position's share
        limit = _position_budget(
            self.iterations, self.seconds, self.deadline, last + 1 - min(ply, last)
        )
        if self.memory_mb is not None:
            limit["memoryMb"] = self.memory_mb
        return limit

    def said(self) -> dict[str, Any]:
        """The review's ``limit``: the budget a position had (``memoryMb`` where given)."""
        said: dict[str, Any] = {"iterations": self.iterations, "seconds": self.seconds}
        if self.memory_mb is not None:
            said["memoryMb"] = self.memory_mb
        return said


@dataclass
class _Found:
    """What the review's searches keep beside their answers (:func:`_searcher`), for the
    replay's notes and words (:class:`_Replayed`)."""

    shortfalls: dict[int, ChanceCoverage] = dataclass_field(default_factory=dict)
    """The searches' chance-coverage numbers, by the ply searched (the hint engine's
    ``shortfall``)."""
    ends: set[int] = dataclass_field(default_factory=set)
    """The plies searched that are the finished game (a forced position's value may be its)."""


def _searcher(
    base: Mapping[str, Any],
    opened: OpenedPosition,
    budget: _Budget,
    last: int,
    found: _Found,
    **kw: Any,
) -> Callable[..., dict[str, Any]]:
    """The walk's search: the hint engine's answer at a ply's state, within ``budget`` (seeded
    ``seed``: a second look's, :func:`_judged`); a chance node's coverage short of the whole and
    the plies of a finished game are kept in ``found``. ``kw``: the hint engine's ``caps`` and
    ``allow_paths``."""
    from solver.hint.engine import OpenedPosition

    request = {key: value for key, value in base.items() if key != "state"}  # opened already

    def search(ply: int, state: State, seed: int = 0) -> dict[str, Any]:
        limit = budget.limit(ply, last)
        position = OpenedPosition(spec=opened.spec, game=opened.game, state=state, actions=[])

        def short(coverage: ChanceCoverage) -> None:
            found.shortfalls[ply] = coverage

        if state.is_terminal():
            found.ends.add(ply)
        asked = {**request, "limit": limit, **({"seed": seed} if seed else {})}
        return _ask(asked, position, f"review-{ply}", shortfall=short, **kw)

    return search


def _teller(
    progress: Callable[[int, int], None] | None, start: int, last: int
) -> Callable[[int], None]:
    """What the walk tells after each position valued: ``progress(done, total)``, if given."""

    def told(ply: int) -> None:
        if progress is not None:
            progress(ply - start + 1, last - start + 1)

    return told


def _close(report: dict[str, Any], said: list[str], value_kind: str, budget: _Budget) -> None:
    """The review's notes and ``limit``: the record's own claims (``said``) open its notes and
    are kept apart too (``recordNotes``: they speak of the whole record, so the service gives
    them first in a ranged answer's wholeNotes, the web table's closing line); the closing
    notes follow."""
    report["notes"][:0] = said
    report["recordNotes"] = list(said)
    report["notes"] += closing_notes(report["decisions"], report["curve"], value_kind,
                                     budget.iterations)  # fmt: skip
    report["limit"] = budget.said()


def _check_arguments(
    record: object, exact: object, total_seconds: object, start: object, stop: object, since: object
) -> None:
    """:func:`review_record`'s arguments beside the record's fields, refused by name
    (:class:`OptionError`): a ``total_seconds`` of NaN ran a review with no bound, -1 or True
    were taken as seconds, ``exact="yes"`` as true, and a text or a fraction for ``start``,
    ``stop`` or ``total_seconds``, or a record that is no object, raised a TypeError or an
    AttributeError."""
    from solver.fields import is_positive_number, shown

    if not isinstance(record, Mapping):
        raise RecordError(f"a game record is a JSON object, not {shown(record)}", None,
                          "invalid_request")  # fmt: skip
    if exact is not None and not isinstance(exact, bool):
        raise OptionError(f"exact must be True, False or None, not {exact!r}")
    if total_seconds is not None and not is_positive_number(total_seconds):
        raise OptionError(
            f"total_seconds must be a finite number > 0 or None, not {total_seconds!r}"
        )
    for name, ply in (("start", start), ("stop", stop)):
        if (ply is not None or name == "start") and (
            isinstance(ply, bool) or not isinstance(ply, int) or ply < 0
        ):
            raise OptionError(f"{name} must be a ply, a whole number ≥ 0, not {ply!r}")
    if since is not None and not is_positive_number(since):  # a reading is > 0
        raise OptionError(f"since must be a time.monotonic() reading, not {since!r}")


def _review_request(
    record: Mapping[str, Any], *, exact: bool | None, start: int, stop: int | None
) -> tuple[GameSpec, dict[str, Any], list[Any], int]:
    """The record checked field by field: its game's spec, the hint request every position shares
    (game, options, saved state, exact, engine), its actions and the last ply to review."""
    from solver.registry import game_spec

    name = record.get("game")
    if not isinstance(name, str):
        raise RecordError('a game record needs "game"', "game", "invalid_request")
    spec = game_spec(name)
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise RecordError('a game record\'s "actions" is a list', "actions", "invalid_request")
    options = record.get("options", {})
    if not isinstance(options, dict):
        raise RecordError('a game record\'s "options" is an object', "options", "invalid_request")
    _check_record_seed(record)
    if not isinstance(record.get("finished"), (bool, type(None))):  # 1 == True: not `in`
        raise RecordError('a game record\'s "finished" is true or false', "finished",
                          "invalid_request")  # fmt: skip
    problem = claims_problem(record)
    if problem is not None:
        raise RecordError(problem[1], problem[0], "invalid_request")
    base: dict[str, Any] = {"game": name, "options": options}
    if record.get("state") is not None:
        base["state"] = record["state"]
    last = len(actions) if stop is None else stop
    if not 0 <= start <= last <= len(actions):
        # the service's names of start and stop: the field at fault, where it was null
        field = "toPly" if last > len(actions) else "fromPly"
        raise RecordError(
            f"{field}: the plies to review must lie in 0..{len(actions)}, from {start} to {last} "
            "at most", field, "invalid_request",
        )  # fmt: skip
    if exact is not None:
        base["exact"] = bool(exact)
    if isinstance(record.get("engine"), str):
        base["engine"] = record["engine"]
    return spec, base, actions, last


def _record_notes(
    record: Mapping[str, Any],
    base: Mapping[str, Any],
    actions: Sequence[Any],
    ended: OpenedPosition,
    *,
    allow_paths: bool,
) -> list[str]:
    """The notes on the record's own claims where its replay (of ``actions``, reaching
    ``ended``) contradicts them: its ``finished`` (:func:`finished_note`), ``labels`` and
    ``returns`` (:mod:`solver.review_claims`). The labels are read on a replay of their own,
    only for a record that has them."""
    ids = ended.actions
    labels = record.get("labels")
    replayed = None
    if isinstance(labels, list):
        start = open_record(base, [], allow_paths=allow_paths).state
        replayed = labels_note(labels, replayed_labels(start, ids, labels))
    said = [finished_note(record.get("finished"), ended.state.is_terminal(), len(actions)),
            replayed, returns_note(record.get("returns"), ended.state, len(ids))]  # fmt: skip
    return [note for note in said if note is not None]


def finished_note(said: bool | None, ended: bool, actions: int) -> str | None:
    """The note on a record whose ``"finished"`` (``said``; ``None``: absent) the replay of its
    ``actions`` contradicts (``ended``: they reach the game's end); ``None`` where they agree.
    The replay is the truth: a game whose actions end it is reviewed as finished (its last
    decisions and the final value included) whatever the flag says; one whose actions stop
    short is reviewed as far as they go."""
    if said is None or said == ended:
        return None
    if ended:
        return (f'the record says "finished": false, but its {actions} actions reach the '
                "game's end: it is reviewed as a finished game (the replay decides)")  # fmt: skip
    return (f'the record says "finished": true, but its {actions} actions stop before the '
            "game's end: it is reviewed as far as they go (the replay decides)")  # fmt: skip


def _check_record_seed(record: Mapping[str, Any]) -> None:
    """A record's ``seed``, where it has one, is a seed (0 to 2**64 - 1) as the service's review
    requires (``invalid_request`` on ``seed``): the review replays the record's actions and reads
    no seed, but a record carrying a bad one is refused, not reviewed as if it were good."""
    from solver.rng import check_seed

    if "seed" not in record:
        return
    try:
        check_seed(record["seed"])
    except OptionError as exc:
        raise RecordError(f"a game record's {exc}", "seed", "invalid_request") from None


@dataclass
class _Replayed:
    """What the replay found: the curve's points, the decisions, the methods that valued them,
    notes, and the last ply reviewed."""

    curve: list[dict[str, Any]]
    decisions: list[dict[str, Any]]
    methods: set[str]
    notes: list[str]
    reviewed: int
    labels: list[str] = dataclass_field(default_factory=list)
    searched: int = 0
    """The positions searched (a forced position carried from a later one is not)."""
    said: dict[str, int] = dataclass_field(default_factory=dict)
    """Each note the searches gave, with the number of positions that gave it (but the
    chance-coverage notes: :attr:`short`)."""
    found: _Found = dataclass_field(default_factory=_Found)
    """The searches' chance coverages short of the whole and the plies of a finished game."""
    short: dict[ChanceCoverage, int] = dataclass_field(default_factory=dict)
    """Each chance coverage of the positions searched, with the number that gave it."""

    end_label: str | None = None
    """The words of the finished game's value where the review reaches the end (kept apart:
    :meth:`value_label`)."""

    start: int = 0
    """The first ply reviewed: a range after it (``fromPly``) has positions before it whose
    words it does not know (:meth:`value_label`)."""

    def add(self, seen: Seen) -> None:
        """Note how ``seen``'s value was found (its method and its words, once each; those of a
        value that is the finished game's apart) and what its search said (an exact search that
        did not finish, so MCTS valued it...)."""
        root = seen.reply["rootInfo"]
        self.methods.add(root["method"])
        label = root.get("valueLabel") or root["valueKind"]
        if seen.source in self.found.ends:
            self.end_label = label
        elif label not in self.labels:
            self.labels.append(label)
        if seen.carried:
            return
        self.searched += 1
        coverage = self.found.shortfalls.get(seen.ply)
        if coverage is not None:
            self.short[coverage] = self.short.get(coverage, 0) + 1
        for note in seen.reply.get("notes", ()):
            if coverage is None or note != coverage.note:  # that one is counted by its numbers
                self.said[note] = self.said.get(note, 0) + 1

    def value_label(self) -> str:
        """The review's ``valueLabel``: the words of every position's value, each once; the
        finished game's words where no other position's value had them said as what they are,
        the value at the game's end ("heuristic estimate of the win probability / exact win
        probability at the game's end": a review estimated along the game read "/ exact win
        probability" as though some of its estimates were exact). A range starting after ply 0
        whose only values are the finished game's says so too: the web table joins the ranges'
        words, and a graph of estimates read "... / exact win probability at the game's end /
        exact win probability along the game" from its last range's bare words."""
        labels = list(self.labels)
        if self.end_label is not None and self.end_label not in labels:
            apart = labels or self.start > 0
            labels.append(f"{self.end_label} at the game's end" if apart else self.end_label)
        return " / ".join(labels)

    def search_notes(self) -> list[str]:
        """The searches' notes, each once with the positions that gave it: a review whose
        values mix exact and estimated ones says why (the estimates' marks are estimates)."""
        return folded_search_notes(self.said, self.short, self.searched)


def _replay(
    walk: Walk,
    last: int,
    budget: _Budget,
    told: Callable[[int], None],
    found: _Found,
    again: Callable[..., dict[str, Any]],
) -> _Replayed:
    """Value every position of the walk up to ply ``last`` and each decision between two of them
    against the best move, until the ``budget``'s deadline (``told(ply)`` after each position);
    a decision whose loss rests on one estimate is searched ``again`` (:func:`_judged`).
    ``found``: what the searches keep (:func:`_searcher`)."""
    start = walk.ply
    before = walk.seen()
    told(start)
    replayed = _Replayed([_point(before)], [], set(), [], reviewed=start, found=found,
                         start=start)  # fmt: skip
    replayed.add(before)
    for ply in range(start + 1, last + 1):
        stopped = budget.ran_out(replayed.reviewed, last)
        if stopped is not None:
            replayed.notes.append(stopped)
            break
        if before.to_move >= 0:
            replayed.decisions.append(_judged(before, walk.upcoming(), walk.state, again))
        walk.step()
        after = walk.seen()
        told(ply)
        replayed.curve.append(_point(after))
        replayed.add(after)
        before = after
        replayed.reviewed = ply
    return replayed


def _report(
    spec: GameSpec, name: str, replayed: _Replayed, start: int, last: int, started: float
) -> dict[str, Any]:
    """The review as :func:`review_record` returns it: decisions, curve, marks counted, accuracy."""
    decisions = replayed.decisions
    summary = {mark: sum(d["mark"] == mark for d in decisions) for mark in THRESHOLDS}
    exact = replayed.methods == {"exact"}
    return {
        "game": name,
        "valueKind": spec.value_kind,
        "valueLabel": replayed.value_label(),
        "exact": exact,
        "methods": sorted(replayed.methods),
        "thresholds": dict(THRESHOLDS),
        "decisions": decisions,
        "curve": replayed.curve,
        "summary": summary,
        "accuracy": mean_accuracy(decisions),
        "complete": replayed.reviewed == last,
        "reviewed": replayed.reviewed,
        "start": start,
        "stop": last,
        "notes": [
            *replayed.notes,
            *replayed.search_notes(),
        ],
        "elapsed": round(time.monotonic() - started, 6),
    }


def _point(seen: Seen) -> dict[str, Any]:
    """The curve's point at a position: the value from ``player``'s view, every seat's where
    known; a forced position's says so (``forced``) and, where its value is the next searched
    position's, which one (``valueFromPly``)."""
    root = seen.reply["rootInfo"]
    value = root["value"] if not seen.carried else value_for(seen.reply, seen.seat)
    point = {"ply": seen.ply, "value": value, "player": seen.seat, "method": root["method"]}
    if root.get("values"):
        point["values"] = root["values"]
    if seen.forced is not None:
        point["forced"] = True
    if seen.carried:
        point["valueFromPly"] = seen.source
    return point


def _judged(
    before: Seen, action: int, state: State, again: Callable[..., dict[str, Any]]
) -> dict[str, Any]:
    """The decision played at ``before`` (``action``; ``state``: its position) judged against
    the search's noise (:mod:`solver.review_noise`): where its first search says the move
    played gave value away, the position is searched ``again`` with other seeds, the moves'
    values pooled, and a loss within the searches' noise leaves the decision undecided (no
    mark, counted accurate; its loss the pooled estimate). Every decision says how many searches
    valued it (``searches``: 0 for a forced move carried), the loss's standard error where it
    was searched again (``lossError``) and whether the loss was within it (``withinNoise``)."""
    decision = _decision_at(before, action)
    searches = 0 if before.carried else 1
    decision.update(searches=searches, lossError=None, withinNoise=False)
    if not needs_second_look(decision):
        return decision
    replies = [before.reply]
    replies += [again(before.ply, state.clone(), seed) for seed in range(1, MORE_SEARCHES + 1)]
    judged = {**_decision(pooled_reply(replies), action, before.ply + 1),
              "forced": decision["forced"]}  # fmt: skip
    error = loss_error(replies, judged["bestAction"], judged["action"])
    noisy = within_noise(judged["loss"], error)
    judged.update(searches=len(replies), lossError=error, withinNoise=noisy)
    if noisy:
        judged.update(undecided=True, mark=None, accuracy=accuracy_of(0.0))
    return judged


def _decision_at(before: Seen, action: int) -> dict[str, Any]:
    """The decision played at ``before`` (``action``): against the search's best move, or a
    forced move's (loss 0, the value its position carried, no simulations)."""
    ply = before.ply + 1
    if not before.carried:
        return {**_decision(before.reply, action, ply), "forced": before.forced is not None}
    assert before.forced is not None
    value = value_for(before.reply, before.seat)
    move = {"action": before.forced[0], "label": before.forced[1], "value": value}
    root = {**before.reply["rootInfo"], "currentPlayer": before.to_move, "visits": 0}
    return {**_decision({"moveInfos": [move], "rootInfo": root}, action, ply), "forced": True}


def _decision(before: dict[str, Any], action: Any, ply: int) -> dict[str, Any]:
    """One decision of the review: the move played against the best, in the hint vocabulary.

    The best move is the search's choice, its first listed move (``moveInfos[0]``: exact, the
    highest value; an estimate, the most simulated, or where the game has a hint agent
    (:mod:`solver.agent_first`) that agent's move among those valued alike with the best), unless
    the move played is valued higher: an estimate's values are means and its choice is not picked
    by value alone, so the two can disagree, and then the move played is the best shown
    (``bestBy`` ``"played"``, loss 0; the search's choice stays in ``searchBest*``), never a
    "best" valued below it. A tie keeps the search's choice (loss 0).

    >>> moves = [{"action": 1, "label": "take 1 tile", "value": 0.0489},
    ...          {"action": 2, "label": "take 2 tiles", "value": 0.1059}]
    >>> root = {"currentPlayer": 0, "method": "mcts", "valueKind": "win probability",
    ...         "visits": 1000}
    >>> d = _decision({"moveInfos": moves, "rootInfo": root}, 2, 5)
    >>> d["bestLabel"], d["bestValue"], d["loss"], d["bestBy"], d["searchBestLabel"]
    ('take 2 tiles', 0.1059, 0.0, 'played', 'take 1 tile')
    """
    moves = before["moveInfos"]
    chosen = next((m for m in moves if action in (m["action"], m["label"])), None)
    searched = moves[0] if moves else None
    best, best_by = searched, "search"
    value = chosen["value"] if chosen is not None else None
    # above by more than ALIKE: a tie the hint agent ordered is not "valued above" its choice
    if chosen is not None and searched is not None and value > searched["value"] + ALIKE:
        best, best_by = chosen, "played"
    loss = None
    if best is not None and value is not None:
        loss = max(0.0, best["value"] - value)
    root = before["rootInfo"]
    alike = [m for m in moves if best is not None and best["value"] - m["value"] < ALIKE]
    undecided = (
        root["method"] != "exact" and chosen is not None and chosen in alike and len(alike) > 1
    )
    return {
        "ply": ply, "player": root["currentPlayer"],
        "action": chosen["action"] if chosen else action,
        "label": chosen["label"] if chosen else str(action),
        "value": value, "best": best["value"] if best else None,
        "bestValue": best["value"] if best else None,
        "bestAction": best["action"] if best else None,
        "bestLabel": best["label"] if best else None,
        "loss": loss, "mark": mark_of(loss), "accuracy": accuracy_of(loss),
        "method": root["method"], "valueKind": root["valueKind"],
        "bestBy": best_by if best is not None else None,
        "searchBestAction": searched["action"] if searched else None,
        "searchBestLabel": searched["label"] if searched else None,
        "searchBestValue": searched["value"] if searched else None,
        "simulations": root.get("visits", 0),
        "undecided": undecided,
    }  # fmt: skip


def values_kind(review: Mapping[str, Any], plural: bool = False) -> str:
    """How a review's values were found, in words: ``exact``, or the searchers' estimate(s)
    (``MCTS estimate``, ``ISMCTS estimate`` for a hidden-information game's, both named where
    both ran)."""
    if review["exact"]:
        return "exact"
    searchers = [m.upper() for m in review.get("methods", ()) if m != "exact"] or ["MCTS"]
    return f"{'/'.join(searchers)} estimate{'s' if plural else ''}"


def seat_curve(review: Mapping[str, Any], player: int = 0) -> list[tuple[int, float]]:
    """The curve from ``player``'s view: each point's value for that seat where it is known
    (``values``, or the point's own value when it is that seat's), so the line does not jump
    between the players to move. Points whose value for the seat is unknown are left out.

    >>> seat_curve({"curve": [{"ply": 0, "value": 0.7, "player": 0, "values": [0.7, 0.3]},
    ...                       {"ply": 1, "value": 0.6, "player": 1, "values": [0.4, 0.6]},
    ...                       {"ply": 2, "value": 0.5, "player": 1}]}, 0)
    [(0, 0.7), (1, 0.4)]
    """
    points = []
    for point in review["curve"]:
        values = point.get("values") or []
        if len(values) > player:
            points.append((point["ply"], float(values[player])))
        elif point.get("player") == player:
            points.append((point["ply"], float(point["value"])))
    return points


def plot_title(review: Mapping[str, Any]) -> str:
    """The plot's title: the game and what is plotted, then how the values were found, wrapped
    to the figure's width. (It read ``dog: exact win probability over the game (exact)``, and a
    review's mixed label ran past both edges of the figure.)

    >>> plot_title({"game": "dog", "valueKind": "win probability", "exact": True,
    ...             "valueLabel": "exact win probability"})
    'dog: win probability over the game\\nexact'
    """
    kind = review["valueKind"]
    how = values_kind(review, plural=True)
    words = review.get("valueLabel") or kind
    if words not in (kind, f"exact {kind}"):
        how = f"{how}: {words}"
    lines = textwrap.wrap(how, width=_TITLE_WIDTH) or [how]
    return "\n".join([f"{review['game']}: {kind} over the game", *lines])


_TITLE_WIDTH = 90
"""Characters a title line holds on the 8-inch figure at 10 points."""


def check_plot_name(path: str) -> None:
    """Refuse a plot ``path`` whose extension is not ``.png`` or ``.svg`` (the format is read
    from it): the command line asks before the review's searches, :func:`write_plot` again."""
    if Path(path).suffix.lower() not in (".png", ".svg"):
        raise OptionError(f"the plot is a .png or .svg file, not {path_said(path)!r}")


def write_plot(
    review: Mapping[str, Any], path: str, *, title: str | None = None, player: int = 0
) -> None:
    """The value over the game from ``player``'s view (:func:`seat_curve`) as a PNG or SVG (by
    ``path``'s extension), marks as dots."""
    check_plot_name(path)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionError(
            "the plot needs matplotlib: pip install 'forest-solver[analysis]'"
        ) from None
    fig = plot_figure(review, title=title, player=player)
    try:
        fig.savefig(path)
    finally:
        plt.close(fig)


def plot_figure(review: Mapping[str, Any], *, title: str | None = None, player: int = 0) -> Any:
    """The matplotlib figure :func:`write_plot` saves (the caller closes it)."""
    import matplotlib.pyplot as plt

    curve = seat_curve(review, player)
    values = dict(curve)
    fig, ax = plt.subplots(figsize=(8, 3.2))
    ax.plot([ply for ply, _ in curve], [v for _, v in curve], color="#2b6cb0", lw=1.6)
    colours = {"inaccuracy": "#d69e2e", "mistake": "#dd6b20", "blunder": "#c53030"}
    for mark, colour in colours.items():
        points = [d for d in review["decisions"] if d["mark"] == mark and d["ply"] in values]
        if points:
            ax.scatter([d["ply"] for d in points], [values[d["ply"]] for d in points],
                       color=colour, label=mark, zorder=3)  # fmt: skip
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("ply (actions played, chance outcomes included)")
    ax.set_ylabel(f"{review['valueKind']} (player {player})")
    ax.set_title(title or plot_title(review), fontsize=10)
    if any(d["mark"] for d in review["decisions"]):
        ax.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
