"""The HTTP service's jobs: what a worker process does for each endpoint.

Top-level functions (picklable), run by :class:`solver.hint.pool.WorkerPool` in its processes;
each takes the request as a dict (already checked by :mod:`solver.hint.ingress` and validated by
the route) and returns the answer as a dict. :func:`guarded` turns a client's mistake into an
error answer, never a traceback.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from solver.errors import OptionError, SolverError
from solver.fields import JSONValue
from solver.hint.engine import (
    Caps,
    HintError,
    RequestClock,
    answer,
    error_answer,
    ignored_note,
    misspelt_refusal,
    open_position,
)
from solver.hint.lines import hinted_svg, move_points, pv_points
from solver.hint.position import requested_spec
from solver.hint.schema import (
    AnalyseAnswer,
    AnalyseRequest,
    PositionRequest,
    ReviewAnswer,
    ReviewedSoFar,
    ReviewRequest,
    RollRequest,
)

if TYPE_CHECKING:
    from solver.game import Game, State
    from solver.spec import AnalysisHooks, GameSpec

__all__ = [
    "ANALYSIS_SECONDS",
    "analyse_job",
    "guarded",
    "hint_job",
    "position_job",
    "review_job",
    "roll_job",
    "warm",
    "warm_games",
]

ANALYSIS_SECONDS = 30.0
"""The seconds an analysis's own searches get (``search_deadline``: guardians' order search
stops there and says ``unsolved``), half the route's timeout (``routes.ANALYSE_SECONDS``, 60 s),
so a loaded machine answers rather than have its worker killed."""


def warm() -> bool:
    """Import the engine and every registered game, and answer one tiny hint on each game's
    default position (its ``example`` where it has no set-up of its own), so a worker's first
    request of a game spends its budget searching, not importing the game (a cold Trial hint
    asked for 0.3 s took 1.4 s on a loaded machine). A game that cannot be opened so is left
    cold, quietly: its first request then says what is wrong."""
    return warm_games()


def warm_games() -> bool:
    """:func:`warm`'s work, for any process that answers hints (the stdio engine's too)."""
    from solver.registry import game_spec, registered_games

    for name in registered_games():
        for request in _warm_requests(game_spec(name)):
            for exact in (None, False):  # the exact attempt where offered, and the estimate
                asked = request if exact is None else {**request, "exact": exact}
                try:
                    answer(asked, allow_paths=False)
                except Exception:  # best effort: a request reports its own errors
                    break
    return True


def _warm_requests(spec: GameSpec) -> list[dict[str, Any]]:
    """The tiny hints :func:`warm_games` asks of a game: its default position (its ``example``
    where it has no set-up of its own), its first puzzle file (the reader too), and where it has
    a set-up of its own, that set-up at every player count it declares: the web table asks
    each by its count, and the first 4-player Trial step of a cold process spent 0.2 s of a
    0.2 s budget compiling the game."""
    from solver import puzzles

    sources: list[str | None] = [spec.example]
    if spec.source_option is not None and spec.puzzles is not None:
        sources += sorted(puzzles.names(spec.name))[:1]
    requests: list[dict[str, Any]] = []
    for source in sources:
        request: dict[str, Any] = {"id": "warm", "game": spec.name, "limit": {"iterations": 1}}
        if source is not None and spec.source_option is not None:
            request["options"] = {spec.source_option: source}
        requests.append(request)
    if spec.example is None:
        for count in spec.players or ():
            requests.append({"id": "warm", "game": spec.name, "limit": {"iterations": 1},
                             "options": {"players": count}})  # fmt: skip
    return requests


def hint_job(raw: dict[str, Any], caps: Caps, admitted: float | None = None) -> dict[str, Any]:
    """A hint whose seconds run from ``admitted`` (the service's admission of the request, in
    ``time.monotonic()``): the wait for a worker is spent from its budget."""
    return answer(raw, caps=caps, allow_paths=False, admitted=admitted)


def _viewing_seat(asked: int | None, game: Game, state: State) -> int:
    """The seat whose view a position is shown from: the one asked for, else the player to move
    (player 0 at chance nodes and at the end)."""
    if asked is None:
        return state.current_player() if state.current_player() >= 0 else 0
    if asked >= game.num_players():
        raise HintError(f"seat {asked} is not a seat of this {game.num_players()}-player game",
                        "seat")  # fmt: skip
    return asked


def position_job(raw: dict[str, Any]) -> dict[str, Any]:
    """What the web table shows of a position: the picture, the moves, the outcomes, the points
    of the picture where each move lands and along ``pv`` (the hinted line)."""
    request = PositionRequest.model_validate(raw)
    position = open_position(request, allow_paths=False, labels_from=request.labels_from)
    spec, game, state = position.spec, position.game, position.state
    mover = state.current_player()
    seat = _viewing_seat(request.seat, game, state)
    shown_to_seat = not spec.hidden_information or seat == mover
    legal = [] if state.is_terminal() or not shown_to_seat else state.legal_actions()
    moves = [{"action": a, "label": state.action_to_string(a)} for a in legal]
    outcomes = [
        {"action": a, "label": state.action_to_string(a), "probability": p}
        for a, p in (state.chance_outcomes() if state.is_chance_node() else [])
    ]
    svg = spec.render_svg(game, state, position.actions) if spec.render_svg else None
    if not shown_to_seat:  # the seat's own information, not the mover's view
        text = state.information_state_string(seat)
    else:
        text = spec.render_text(game, state) if spec.render_text is not None else None
    moves_at = move_points(spec, game, state)
    along = pv_points(spec, game, state, request.pv)
    pv_svg = hinted_svg(spec, game, state, request.pv)
    view = spec.table_view(game, state, seat) if spec.table_view else {}
    saved = None
    if not spec.hidden_information and hasattr(state, "to_json"):
        saved = state.to_json()  # a saved position: only where it hides nothing
    return {
        "game": spec.name,
        "players": game.num_players(),
        "line": position.line,
        # where the line starts: labelsFrom, capped at the actions replayed (the line is empty
        # from there), so lineFrom never names an index past the line it comes with
        "lineFrom": min(request.labels_from, len(position.actions)),
        "state": saved,
        "panels": view.get("panels", []),
        "targets": view.get("targets", []),
        "seat": seat,
        "seatMoves": shown_to_seat,
        "currentPlayer": mover,
        "terminal": state.is_terminal(),
        "chance": state.is_chance_node(),
        "returns": state.returns() if state.is_terminal() else None,
        "scores": spec.final_scores(state),
        "moves": moves,
        "outcomes": outcomes,
        "actions": position.actions,
        "svg": svg,
        "text": text,
        "point": along[0] if along else None,
        "movePoints": moves_at,
        "pvPoints": along,
        "pvSvg": pv_svg,
        "drawsLine": bool(spec.svg_line or spec.svg_point),
        "valueKind": spec.value_kind,
        "notes": ignored_note(request),
    }


def analyse_job(raw: dict[str, Any], admitted: float | None = None) -> dict[str, Any]:
    """A game file's analysis row; its searches' :data:`ANALYSIS_SECONDS` run from ``admitted``
    (the service's admission, ``time.monotonic()``; ``None``: now), as a hint's seconds do."""
    import importlib

    clock = RequestClock.since(admitted)
    request = AnalyseRequest.model_validate(raw)
    for name, given in (("actions", bool(request.actions)), ("state", request.state is not None)):
        if given:  # the model shares the hint's position fields; an analysis reads none of them
            raise HintError(
                f"{name}: an analysis is of a game file from its start, so it takes no {name} "
                "(POST /v1/hint values a position)",
                name,
            )
    spec = requested_spec(request.game)
    hooks = spec.analysis
    if hooks is None:
        raise HintError(f"analysis is not supported for {spec.name}", "game", "unsupported")
    if spec.source_option is None:  # the Trial: its instances are set-ups, not a game's file
        raise HintError(
            f"{spec.name}'s {hooks.noun}s are not a game file a request can carry: analyse them "
            f"with `forest analyse --game {spec.name}`",
            "game",
            "unsupported",
        )
    field_name = f"options.{spec.source_option}"
    _check_analysed_game(request, spec, field_name)
    source = request.options.get(spec.source_option)
    if not isinstance(source, str) or not source.strip():
        raise HintError(f"{field_name}: a puzzle name or the file's text", field_name)
    name, instance = _analysed_instance(spec, hooks, source, field_name)

    class _Held:
        def __init__(self) -> None:
            self.source = name

        def load(self) -> Any:
            return instance

    module, _, function = hooks.analyse.partition(":")
    analyse = getattr(importlib.import_module(module), function)
    from solver.search.limit import search_deadline

    with search_deadline(clock.deadline(ANALYSIS_SECONDS)):
        row = analyse(_Held())
    clean = json.loads(json.dumps(row, default=str))
    return AnalyseAnswer(
        id=request.id,
        game=spec.name,
        row=clean,
        elapsed=round(time.monotonic() - clock.started, 6),
        notes=ignored_note(request),
    ).model_dump(by_alias=True)


def _check_analysed_game(request: AnalyseRequest, spec: GameSpec, field_name: str) -> None:
    """An analysis takes the game file's option alone, and an engine the game has."""
    for key in request.options:
        if key != spec.source_option:  # nothing else changes the row: a value would go unread
            raise HintError(
                f"options.{key}: an analysis reads only {field_name} (the game file, from its "
                f"start), so it takes no {key!r}",
                f"options.{key}",
            )
    if request.engine is not None and request.engine not in spec.engines:
        raise HintError(
            f"{spec.name} has no engine {request.engine!r}; expected one of "
            f"{', '.join(spec.engine_names())}",
            "engine",
        )


def _analysed_instance(
    spec: GameSpec, hooks: AnalysisHooks, source: str, field_name: str
) -> tuple[str, Any]:
    """The instance an analysis request names (its name and the hooks' loaded instance): a
    puzzle by name, or a file's text (read through a scratch file; its errors as the text's)."""
    from solver import puzzles

    if spec.puzzles is not None and source in puzzles.names(spec.puzzles):
        instance = hooks.load(str(puzzles.path(source)))
        name = source
    elif "\n" in source:
        if len(source) > hooks.max_file_bytes:
            raise HintError(f"{field_name}: larger than {hooks.max_file_bytes} bytes", field_name)
        with tempfile.TemporaryDirectory() as folder:
            target = Path(folder) / f"inline{hooks.extension}"
            target.write_text(source, encoding="utf-8")
            try:
                instance = hooks.load(str(target))
            except (SolverError, ValueError) as exc:
                # the text's own error, as a hint's: the server's scratch file is no path the
                # client gave (it read "/tmp/tmpXXXX/inline.forest: line 4, ...")
                said = str(exc).replace(f"{target}: ", "").replace(str(target), "the text")
                raise HintError(f"{field_name}: {said}", field_name, "bad_game") from None
        name = "inline"
    else:
        raise HintError(f"{field_name}: not a puzzle name, nor a file's text", field_name)
    return name, instance


def _number_quoted(value: int) -> str:
    """``value`` as a message quotes it: a huge number by its digit count, not in full."""
    text = str(value)
    return text if len(text) <= 12 else f"a number of {len(text.lstrip('-'))} digits"


def roll_job(raw: dict[str, Any]) -> dict[str, Any]:
    """A rolled instance as the options of a request (its file's text inline)."""

    request = RollRequest.model_validate(raw)
    spec = requested_spec(request.game)
    hooks = spec.analysis
    if hooks is None or hooks.roll is None or spec.source_option is None:
        raise HintError(f"rolling an instance is not supported for {spec.name}", "game",
                        "unsupported")  # fmt: skip
    for name, (low, high) in zip(("width", "height"), hooks.sizes(), strict=True):
        value = getattr(request, name)
        if not low <= value <= high:
            raise HintError(f"{name} must be {low}..{high} for {spec.name} (the sizes its "
                            f"generator rolls), not {_number_quoted(value)}", name)  # fmt: skip
    if request.turns is not None and hooks.turns_range is None:  # read by nothing: refused
        raise HintError(f"turns: the {spec.name} game has no turn limit to change (as `forest "
                        "analyse --turns` says)", "turns")  # fmt: skip
    if request.turns is not None and hooks.turns_range is not None:
        first, last = hooks.turns_range
        if not first <= request.turns <= last:
            raise HintError(f"turns must be {first}..{last} for {spec.name}, not "
                            f"{_number_quoted(request.turns)}", "turns")  # fmt: skip
    instance = hooks.roll(request.seed, (request.width, request.height), request.turns)
    text = hooks.dump(instance)
    return {"game": spec.name, "options": {spec.source_option: text},
            "source": f"seed:{request.seed} {request.width}x{request.height}",
            "notes": ignored_note(request)}  # fmt: skip


def review_job(raw: dict[str, Any], caps: Caps, admitted: float | None = None) -> dict[str, Any]:
    """A whole review, bounded by the review's seconds (the request's ``totalSeconds``, capped
    by ``caps.max_review_seconds``), counted from ``admitted`` (the service's admission: the
    wait for a worker is spent from them, as a hint's is)."""
    from solver.review import RecordError, accuracy_title, review_record

    request = ReviewRequest.model_validate(raw)
    misspelt_refusal(request, "actions", "a review without its actions reviews no move")
    record = {"game": request.game, "options": request.options, "seed": request.seed,
              "actions": request.actions}  # fmt: skip
    if request.engine is not None:
        record["engine"] = request.engine
    if request.state is not None:
        record["state"] = request.state
    if request.finished is not None:
        record["finished"] = request.finished
    if request.labels is not None:
        record["labels"] = request.labels
    if request.returns is not None:
        record["returns"] = request.returns
    total = min(request.total_seconds or caps.max_review_seconds, caps.max_review_seconds)
    try:
        result = review_record(
            record, iterations=request.limit.iterations, seconds=request.limit.seconds,
            exact=request.exact, caps=caps, allow_paths=False, total_seconds=total,
            start=request.from_ply, stop=request.to_ply, memory_mb=request.limit.memory_mb,
            since=admitted,
        )  # fmt: skip
    except RecordError as exc:  # replayed before any search: refused at once
        raise HintError(str(exc), exc.field, exc.code) from None
    except OptionError as exc:
        raise HintError(str(exc), None) from None
    record_notes = result.pop("recordNotes")
    decisions, curve = _whole_review(request.earlier, result)
    result["wholeNotes"] = [*record_notes, *_closing(decisions, curve, result)]
    result["accuracyTitle"] = accuracy_title(decisions)
    result["notes"] = [*result.get("notes", []), *ignored_note(request),
                       *ignored_note(request.earlier, "earlier.")]  # fmt: skip
    return ReviewAnswer(id=request.id, **result).model_dump(by_alias=True)


Reviewed = list[dict[str, Any]]
"""A review's decisions, or its curve's points, in ply order."""


def _whole_review(
    earlier: ReviewedSoFar | None, result: dict[str, Any]
) -> tuple[Reviewed, Reviewed]:
    """The whole review's decisions and curve: ``earlier``'s decisions up to the range's first
    ply and its curve before it, then the answer's own. The web table reviews a game six plies
    a request, and each answer's notes speak of its plies; ``wholeNotes`` and ``accuracyTitle``
    speak of these."""
    _check_earlier_seats(earlier, result)
    start = result["start"]
    decisions = (
        {d.ply: d.model_dump(by_alias=True) for d in earlier.decisions if d.ply <= start}
        if earlier
        else {}
    )
    curve = {p.ply: p.model_dump() for p in earlier.curve if p.ply < start} if earlier else {}
    decisions.update((d["ply"], d) for d in result["decisions"])
    curve.update((p["ply"], p) for p in result["curve"])
    return [decisions[ply] for ply in sorted(decisions)], [curve[ply] for ply in sorted(curve)]


def _closing(decisions: Reviewed, curve: Reviewed, result: dict[str, Any]) -> list[str]:
    """The review's closing notes (:func:`solver.review.closing_notes`) over the whole review."""
    from solver.review import closing_notes

    return closing_notes(decisions, curve, result["valueKind"], result["limit"].get("iterations"))


def _check_earlier_seats(earlier: ReviewedSoFar | None, result: dict[str, Any]) -> None:
    """Refuse ``earlier`` naming a seat the reviewed game has not (its seats: the answer's curve
    values, one a seat), or a curve point of another count: ``wholeNotes`` spoke of them as
    sent ('player 64 ...' of a one-player dog game)."""
    seats = next((len(p["values"]) for p in result["curve"] if p.get("values")), None)
    if earlier is None or seats is None:
        return
    for index, decision in enumerate(earlier.decisions):
        if decision.player >= seats:
            field = f"earlier.decisions.{index}.player"
            raise HintError(f"{field}: seat {decision.player} is not a seat of this "
                            f"{seats}-player game", field, "invalid_request")  # fmt: skip
    for index, point in enumerate(earlier.curve):
        if point.values is not None and len(point.values) != seats:
            field = f"earlier.curve.{index}.values"
            raise HintError(f"{field}: {len(point.values)} values, where this game has {seats} "
                            "seats (one value a seat)", field, "invalid_request")  # fmt: skip


def guarded(job: Callable[..., dict[str, Any]], raw: JSONValue, *args: object) -> dict[str, Any]:
    """Run ``job``; a client's mistake becomes an error answer, never a traceback."""
    ident = raw.get("id") if isinstance(raw, dict) else None
    try:
        return job(raw, *args)
    except HintError as exc:
        return error_answer(ident, str(exc), exc.field, exc.code)
    except SolverError as exc:
        return error_answer(ident, str(exc), None, "invalid_request")
    except RecursionError:
        return error_answer(ident, "nested too deeply", None, "invalid_request")
