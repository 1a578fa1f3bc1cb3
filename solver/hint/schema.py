"""The hint engine's one schema: requests, answers and errors, as pydantic v2 models.

Both transports (``forest hint --stdio``, one JSON object a line; ``forest serve``, the body of
``POST /v1/hint``) speak it; :func:`json_schema` publishes it as JSON Schema (``forest hint
--schema``) and the HTTP service in its OpenAPI document. Field names follow the KataGo analysis
engine where it has one (``id``, ``moveInfos``, ``rootInfo``, ``isDuringSearch``,
``reportDuringSearchEvery``, ``terminateId``); the issue's own names (``top_k``, ``limit``,
``exact``, ``player``) are kept as written. Unknown fields are ignored (a newer client may send
more); a known field with a wrong type or value is an error naming it.

>>> request = HintRequest.model_validate(
...     {"id": "q1", "game": "dog", "options": {"forest": "dog/another-dog"}, "actions": [],
...      "limit": {"iterations": 2000}, "exact": True, "top_k": 3, "colour": "ignored"})
>>> request.limit.iterations, request.top_k, request.version
(2000, 3, 1)
>>> sorted(json_schema()["$defs"])[:3]
['AnalyseAnswer', 'AnalyseRequest', 'ErrorAnswer']
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from solver.errors import needs_extra

with needs_extra("the hint engine"):  # the serve extra: the API names it
    from pydantic import (
        BaseModel,
        ConfigDict,
        Field,
        StrictBool,
        StrictFloat,
        StrictInt,
        ValidationError,
    )

from solver.fields import JSONValue

__all__ = [
    "MAX_ACTIONS",
    "SCHEMA_VERSION",
    "AnalyseAnswer",
    "AnalyseRequest",
    "ErrorAnswer",
    "HintAnswer",
    "HintLimit",
    "HintRequest",
    "KeepsUnknown",
    "LimitApplied",
    "MoveInfoOut",
    "PositionRequest",
    "ReviewAnswer",
    "ReviewRequest",
    "ReviewedDecision",
    "ReviewedPoint",
    "ReviewedSoFar",
    "RollRequest",
    "RootInfo",
    "StrengthMove",
    "TableHintRequest",
    "TableMoveRequest",
    "TableRecordRequest",
    "TableSessionRequest",
    "TableStartRequest",
    "TerminateRequest",
    "ValidationError",
    "error_from_validation",
    "json_schema",
]

SCHEMA_VERSION: Literal[1] = 1
"""The schema's version: requests may name it (``"version": 1``), every answer carries it."""

MAX_ACTIONS = 10_000
"""The most actions a request may replay from its position."""

_ID = Field(min_length=1, max_length=200, description="echoed in the answer (any string)")

_Positive = Annotated[StrictFloat, Field(gt=0, allow_inf_nan=False)]
"""A finite JSON number > 0 (``true`` and ``"1"`` refused, not coerced): seconds and megabytes."""

_Seat = Annotated[StrictInt, Field(ge=0, le=64)]
"""A seat's number (0 to 64; a game's own count is checked once it is open)."""

_Ply = Annotated[StrictInt, Field(ge=0, le=MAX_ACTIONS)]
"""A ply of a record: an index into its actions (0 to :data:`MAX_ACTIONS`)."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)


class KeepsUnknown(_Model):
    """A request whose unknown top-level fields are kept aside (a newer client may send more)
    and named in the answer (``engine.ignored_note``), so a misspelt field (``limt``,
    ``action`` for ``actions``) is not silently lost."""

    # listed after _Position among a request's bases: pydantic merges the bases' configs in
    # order, the last one winning (first, _Position's extra="ignore" undid this)
    model_config = ConfigDict(extra="allow", populate_by_name=True)

    def ignored_fields(self) -> list[str]:
        """The request's unknown top-level fields, sorted (none: an empty list)."""
        return sorted(self.model_extra or ())


class HintLimit(_Model):
    """The search budget (the search API's :class:`~solver.search.Limit`); the server caps it.
    An unknown field is refused by name (``limit.depth``): a budget silently ignored would run
    a search the client did not ask for (unknown top-level fields stay ignored)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    iterations: StrictInt | None = Field(
        default=None, ge=1, description="MCTS simulations (default 1000 when neither is given)"
    )
    seconds: _Positive | None = Field(default=None, description="wall-clock seconds")
    memory_mb: _Positive | None = Field(
        default=None,
        alias="memoryMb",
        description="the exact search's table cap (and the MCTS tree's), megabytes",
    )


class _Position(_Model):
    """A game and a position: options, an optional state, the actions played from there."""

    version: Literal[1] = Field(default=SCHEMA_VERSION, description="the schema version")
    game: str = Field(min_length=1, max_length=64, description="a registered game's name")
    engine: str | None = Field(
        default=None, max_length=32, description="'kernel' or 'reference' (default: the game's)"
    )
    options: dict[str, Any] = Field(
        default_factory=dict,
        description=(
            "the game's options: the file option the game declares (the dog's 'forest') holds a "
            "puzzle name, the file's text, or (stdio only) a path; 'players' a player count; "
            "the game's own options (guardians' 'level', 'tiles'), a text value on stdio only"
        ),
    )
    state: dict[str, Any] | str | None = Field(
        default=None,
        description="a state's JSON (an object, or its text) to start from instead of the start",
    )
    actions: list[StrictInt | str] = Field(
        default_factory=list,
        max_length=MAX_ACTIONS,
        description="actions played from the position, by id or by label (chance outcomes too)",
    )


class HintRequest(_Position, KeepsUnknown):
    """One hint request. Unknown top-level fields are kept aside (a newer client may send more)
    and named in the answer's ``notes``, so a misspelt field (``limt``) is not silently lost."""

    id: str = _ID
    limit: HintLimit = Field(default_factory=HintLimit)
    top_k: StrictInt | None = Field(
        default=None, ge=1, le=1000, description="report only the best k moves (MultiPV)"
    )
    exact: StrictBool | None = Field(
        default=None,
        description=(
            "omitted: exact where it fits (the game offers it, perfect information, within the "
            "memory cap and half of the seconds), else an MCTS estimate; true: exact, or an "
            "estimate with a note saying why (an error where the game offers no exact search); "
            "false: never exact"
        ),
    )
    player: _Seat | None = Field(
        default=None,
        description=(
            "the seat whose view the values are from (default: the player to move); in a "
            "hidden-information game any seat may ask and the search sees only what it sees; "
            "with perfect information only the player to move"
        ),
    )
    seed: StrictInt = Field(default=0, ge=0, le=2**64 - 1, description="the search's seed")
    strength: StrictInt | None = Field(
        default=None,
        ge=1,
        le=10,
        description=(
            "a level of the game's strength ladder (1 beginner, 10 strongest): the answer's "
            "strengthMove names the move that level plays here (seeded by seed); moveInfos stay "
            "the full analysis"
        ),
    )
    report_during_search_every: _Positive | None = Field(
        default=None,
        alias="reportDuringSearchEvery",
        description="stdio only: a partial answer (isDuringSearch true) every this many seconds",
    )


class PositionRequest(_Position, KeepsUnknown):
    """A position as the web table shows it (``POST /v1/position``); ``pv``: actions whose path
    on the picture is wanted (the hinted line)."""

    pv: list[StrictInt] = Field(default_factory=list, max_length=256)
    labels_from: StrictInt = Field(
        default=0,
        ge=0,
        alias="labelsFrom",
        description=(
            "the answer's line labels the actions from this index on (lineFrom says where it "
            "starts): the web table asks only for the labels it has not got"
        ),
    )
    seat: _Seat | None = Field(
        default=None,
        description=(
            "the seat the viewer holds (default: the player to move, player 0 at chance "
            "nodes): the panels are that seat's; in a hidden-information game the text view is "
            "its information state and the legal moves are listed only when it is to move, so "
            "the answer names no card hidden from it"
        ),
    )


class RollRequest(KeepsUnknown):
    """A new instance rolled by the game's generator (``POST /v1/roll``)."""

    game: str = Field(min_length=1, max_length=64)
    seed: StrictInt = Field(default=0, ge=0, le=2**63 - 1)
    # no bounds here: the game's own (its analysis hooks' size_range and turns_range) are
    # checked by the roll, which names them; a bound here answered pydantic's words instead
    width: StrictInt = Field(default=6, description="checked against the game's sizes")
    height: StrictInt = Field(default=6, description="checked against the game's sizes")
    turns: StrictInt | None = Field(default=None, description="checked against the game's turns")


class TerminateRequest(KeepsUnknown):
    """Stops the search of request ``terminateId``, which is answered with what it has; unknown
    fields are named in the acknowledgement's ``notes``."""

    id: str = _ID
    action: Literal["terminate"]
    terminate_id: str = Field(alias="terminateId", min_length=1, max_length=200)


class MoveInfoOut(_Model):
    """One candidate move, ranked by ``order`` (0 is the best)."""

    action: int
    label: str
    order: int
    visits: int = Field(description="MCTS visits (0 for an exact search)")
    value: float = Field(description="the value after this move, from rootInfo.player's view")
    pv: list[int] = Field(description="the principal variation as action ids, this move first")
    pv_labels: list[str] = Field(alias="pvLabels", description="the same as labels")
    pv_actions: list[int] = Field(
        default_factory=list,
        alias="pvActions",
        description="the same as pv (ids): the name every surface uses (best-move --json too)",
    )
    pv_chance: list[bool] = Field(
        default_factory=list,
        alias="pvChance",
        description="for each step of pv, whether it is a chance outcome (a draw, a roll, a "
        "reveal): the outcome the search followed there, an assumption and not a prediction",
    )


class StrengthMove(_Model):
    """The move the requested level of the strength ladder plays (``strength``)."""

    level: int = Field(description="the level asked for (1-10)")
    agent: str = Field(description="the agent's name, 'levelK'")
    action: int
    label: str


class RootInfo(_Model):
    """The position's own value."""

    value: float = Field(description="rootInfo.valueKind, from the view of rootInfo.player")
    value_kind: str = Field(alias="valueKind", description="'win probability' or 'expected score'")
    player: int = Field(description="the seat whose view every value is given from")
    current_player: int = Field(alias="currentPlayer", description="-1 chance, -4 game over")
    visits: int = Field(description="MCTS simulations of this search (0 for exact)")
    exact: bool = Field(description="the values are exact (method 'exact')")
    method: str = Field(
        default="mcts",
        description=(
            "what produced the values: 'exact' (expectimax; a finished game's returns), 'mcts' "
            "(an estimate), 'ismcts' (an estimate from the observer's view)"
        ),
    )
    determinizations: int = Field(
        default=0, description="hidden information: the observer's views searched (0: none)"
    )
    values: list[float] = Field(
        default_factory=list,
        description="every seat's value of the position, by seat, where the search knows them "
        "([] for an estimate from one observer's view)",
    )
    searcher: str | None = Field(
        default=None,
        description="which implementation searched: 'compiled' (a compiled loop over the game's "
        "kernel), 'python' (the Python searcher, e.g. on the reference engine); null where "
        "nothing was searched (a finished game)",
    )
    leaves: str | None = Field(
        default=None,
        description="how an estimate's simulations valued their leaves (the searcher's "
        "evaluator): 'rollout' or 'guided' (played to the end of the game), 'heuristic', "
        "'mixed', 'heuristic-playout' (the game's heuristic: a guess); null for an exact value",
    )
    value_label: str = Field(
        default="",
        alias="valueLabel",
        description="what the value is, in the words to show beside it "
        "(solver.search.value_words): 'exact win probability', 'estimated win probability' "
        "(simulations played to the end), 'heuristic estimate of the win probability' (leaves "
        "valued by the game's heuristic, not a win rate measured by play)",
    )


class LimitApplied(_Model):
    """The budget the search ran under, after the server's caps."""

    iterations: int | None = None
    seconds: float | None = None
    memory_mb: float | None = Field(default=None, alias="memoryMb")
    capped: list[str] = Field(
        default_factory=list, description="the fields the server lowered (or set) below the ask"
    )


class HintAnswer(_Model):
    """The answer to a :class:`HintRequest` (final, or partial with ``isDuringSearch``)."""

    id: str
    version: int = SCHEMA_VERSION
    game: str
    is_during_search: bool = Field(alias="isDuringSearch")
    move_infos: list[MoveInfoOut] = Field(
        alias="moveInfos", description="ranked; [] at a chance node or a finished game"
    )
    root_info: RootInfo = Field(alias="rootInfo")
    limit_applied: LimitApplied = Field(alias="limitApplied")
    elapsed: float = Field(description="seconds spent on the request")
    terminated: bool = Field(default=False, description="stopped early by a terminate request")
    notes: list[str] = Field(default_factory=list, description="what the engine changed and why")
    queued: float = Field(
        default=0.0,
        description="seconds the request waited between its admission (arrival) and the start "
        "of its work: spent from its seconds, as the answer's own time is",
    )
    strength_move: StrengthMove | None = Field(
        default=None,
        alias="strengthMove",
        description="with strength: the move that level plays (null at a chance node, a "
        "finished game, a partial answer, or without strength)",
    )


class ErrorAnswer(_Model):
    """An error: the request's ``id`` (``null`` when it had none), a message, the bad field."""

    id: str | None
    error: str
    field: str | None = Field(description="the request field at fault, dotted ('limit.seconds')")
    code: str = Field(description="a stable error code (docs/hint-engine.md)")
    version: int = SCHEMA_VERSION


class AnalyseRequest(_Position, KeepsUnknown):
    """A game file's solvability (games with analysis hooks): its class, par and value."""

    id: str = Field(default="analyse", min_length=1, max_length=200)


class AnalyseAnswer(_Model):
    id: str
    version: int = SCHEMA_VERSION
    game: str
    row: dict[str, Any] = Field(description="the game's analysis row (class, par, value, ...)")
    elapsed: float
    notes: list[str] = Field(
        default_factory=list, description="the request's unknown fields, named (ignored)"
    )


_Finite = Annotated[StrictFloat, Field(allow_inf_nan=False)]
"""A finite JSON number (an integer is one too; ``true`` and ``"1"`` refused)."""


class ReviewedDecision(_Model):
    """A decision an earlier ranged answer gave (one of its ``decisions``): the fields the
    review's closing notes read (others are ignored, so a whole decision may be sent back).
    A decision is of ply 1 or later (the move into that ply); one without ``simulations`` says
    nothing of its search, and is not counted as searched with fewer than asked (it was said
    to have been searched with 0)."""

    ply: Annotated[StrictInt, Field(ge=1, le=MAX_ACTIONS)]
    player: _Seat
    loss: Annotated[_Finite, Field(ge=0)] | None = None
    accuracy: Annotated[_Finite, Field(ge=0, le=100)] | None = None
    undecided: StrictBool = False
    forced: StrictBool = False
    method: str = Field(default="", max_length=32)
    simulations: StrictInt | None = Field(default=None, ge=0, le=2**63 - 1)
    searches: StrictInt | None = Field(
        default=None, ge=0, le=2**63 - 1,
        description="the searches that valued it (3 where its loss was given a second look)",
    )  # fmt: skip
    within_noise: StrictBool = Field(
        default=False,
        alias="withinNoise",
        description="its loss was within the searches' noise (so it is undecided)",
    )


class ReviewedPoint(_Model):
    """A point of an earlier ranged answer's ``curve``: its ply, method and every seat's value
    (where the search knows them), else its ``value`` for its ``player`` (a hidden-card game's
    search knows only its own seat's: the fall note reads that)."""

    ply: _Ply
    method: str = Field(default="", max_length=32)
    values: list[_Finite] | None = Field(default=None, max_length=65)
    value: _Finite | None = None
    player: _Seat | None = None


class ReviewedSoFar(KeepsUnknown):
    """What the earlier ranged requests of one review answered (their ``decisions`` and
    ``curve``, as sent back by the client): the answer's ``wholeNotes`` speak of them and of its
    own plies. The server takes them as sent (it keeps nothing between requests). Its unknown
    fields are named in the answer's ``notes`` (``earlier.decisons``: a misspelt list left the
    closing notes without the earlier decisions, silently); a decision's and a point's are not
    (a whole decision may be sent back)."""

    decisions: list[ReviewedDecision] = Field(default_factory=list, max_length=MAX_ACTIONS)
    curve: list[ReviewedPoint] = Field(default_factory=list, max_length=MAX_ACTIONS + 1)


class ReviewRequest(KeepsUnknown):
    """A game record to review: ``{"game", "options", "seed", "actions"}`` plus the budget."""

    version: Literal[1] = SCHEMA_VERSION
    id: str = Field(default="review", min_length=1, max_length=200)
    game: str = Field(min_length=1, max_length=64)
    engine: str | None = Field(default=None, max_length=32)
    options: dict[str, Any] = Field(default_factory=dict)
    seed: StrictInt = Field(default=0, ge=0, le=2**64 - 1)
    actions: list[StrictInt | str] = Field(default_factory=list, max_length=MAX_ACTIONS)
    limit: HintLimit = Field(
        default_factory=HintLimit, description="each position's budget (as a hint request's)"
    )
    exact: StrictBool | None = Field(
        default=None,
        description=(
            "as a hint request's: omitted, exact where it fits; true, exact or a noted "
            "fallback; false, never"
        ),
    )
    total_seconds: _Positive | None = Field(
        default=None,
        alias="totalSeconds",
        description="the whole review's seconds (the server caps it: --max-review-seconds)",
    )
    state: dict[str, Any] | str | None = Field(
        default=None, description="a saved position (state JSON) the record starts from"
    )
    finished: StrictBool | None = Field(
        default=None,
        description="the record's own word on whether the game ended (as play --record writes "
        "it); the replay decides, and a note says where they differ",
    )
    labels: list[str | None] | None = Field(
        default=None,
        max_length=MAX_ACTIONS,
        description="the record's own label of each action (as play --record writes them); the "
        "replay decides, and a note says where they differ",
    )
    returns: list[StrictFloat | StrictInt] | None = Field(
        default=None,
        max_length=64,
        description="the record's own word on the game's returns (as play --record writes them; "
        "null: unfinished); the replay decides, and a note says where they differ",
    )
    from_ply: _Ply = Field(
        default=0,
        alias="fromPly",
        description="review the positions from this ply (a ranged review: a long game a piece "
        "at a time)",
    )
    to_ply: _Ply | None = Field(
        default=None,
        alias="toPly",
        description="... to this ply, included (default: the record's end)",
    )
    earlier: ReviewedSoFar | None = Field(
        default=None,
        description="a ranged review's earlier answers (their decisions and curve; those at "
        "this range's plies or past them are left out), so that wholeNotes speaks of the whole "
        "review: the web table sends them with its last range",
    )


class ReviewAnswer(_Model):
    id: str
    version: int = SCHEMA_VERSION
    game: str
    value_kind: str = Field(alias="valueKind")
    value_label: str = Field(
        default="",
        alias="valueLabel",
        description="what the values are, in words (rootInfo.valueLabel of the positions "
        "reviewed, each kind once, joined by ' / ')",
    )
    exact: bool
    thresholds: dict[str, float]
    decisions: list[dict[str, Any]]
    curve: list[dict[str, Any]]
    summary: dict[str, int]
    accuracy: dict[str, float] = Field(
        default_factory=dict,
        description="each seat's mean Lichess accuracy over its reviewed decisions (no "
        "volatility weighting)",
    )
    methods: list[str] = Field(default_factory=list, description="the methods of the values")
    complete: bool = Field(default=True, description="every ply reviewed (false: out of time)")
    reviewed: int = Field(default=0, description="the plies reviewed")
    start: int = Field(default=0, description="the first ply reviewed (fromPly)")
    stop: int = Field(default=0, description="the last ply asked for (toPly, or the end)")
    notes: list[str] = Field(default_factory=list)
    finished: bool = Field(
        default=False,
        description="the record's actions reach the game's end (the replay's word, whatever the "
        "record's finished says; a note says where they differ)",
    )
    elapsed: float
    limit: dict[str, Any] = Field(
        default_factory=dict,
        description="each position's budget: iterations (the request's, else the game's review "
        "default) and seconds (the request's; the whole review's share may bound it further); "
        "exact positions are searched exactly instead",
    )
    whole_notes: list[str] = Field(
        default_factory=list,
        alias="wholeNotes",
        description="the review's closing notes over its whole (earlier's decisions and curve, "
        "then this answer's), as the command line words them: the decisions the estimates could "
        "not tell from others, the losses within the searches' noise, a player's value falling "
        "more than their moves gave away, the decisions a player came to with the game already "
        "lost, the decisions searched with fewer simulations than asked (without earlier: this "
        "answer's own, also in notes)",
    )
    accuracy_title: str = Field(
        default="",
        alias="accuracyTitle",
        description="what the accuracy figures are, in the command line's words (the words "
        "before them on forest GAME review's accuracy line): Lichess's curve, an unweighted "
        "mean, and how many decisions valued alike with the best it counts as accurate; over "
        "the decisions wholeNotes speaks of (earlier's, then this answer's)",
    )


_TYPE_TAGS = {"body", "int", "str", "float", "bool", "none", "literal"}


def _type_tag(part: str | int) -> bool:
    """A location part naming a union member's type (``int``, ``dict[str,any]``), not a field."""
    return isinstance(part, str) and (part.lower() in _TYPE_TAGS or "[" in part)


def error_message(error: Mapping[str, object]) -> str:
    """A validation error's message in words: an unknown field inside an object that refuses
    them (``limit``) names the fields it takes."""
    if error.get("type") == "extra_forbidden":
        taken = ", ".join(f.alias or name for name, f in HintLimit.model_fields.items())
        return f"not a field of limit (it takes {taken})"
    return str(error.get("msg", "invalid request"))


def error_from_validation(exc: ValidationError, raw: JSONValue) -> ErrorAnswer:
    """The first validation error as an :class:`ErrorAnswer` (the dotted field and a message)."""
    first = exc.errors(include_url=False)[0]
    loc = [str(part) for part in first.get("loc", ()) if not _type_tag(part)]
    field = ".".join(loc) or None
    message = error_message(first)
    if field:
        message = f"{field}: {message}"
    ident = raw.get("id") if isinstance(raw, dict) else None
    return ErrorAnswer(
        id=ident if isinstance(ident, str) else None,
        error=message,
        field=field,
        code="invalid_request",
    )


def json_schema() -> dict[str, Any]:
    """Every model of the schema as one JSON Schema document (``$defs`` by model name)."""
    models: list[type[BaseModel]] = [
        HintRequest,
        TerminateRequest,
        HintAnswer,
        ErrorAnswer,
        AnalyseRequest,
        AnalyseAnswer,
        ReviewRequest,
        ReviewAnswer,
    ]
    defs: dict[str, Any] = {}
    for model in models:
        schema = model.model_json_schema(by_alias=True, ref_template="#/$defs/{model}")
        defs.update(schema.pop("$defs", {}))
        defs[model.__name__] = schema
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "forest-solver hint engine",
        "version": SCHEMA_VERSION,
        "$defs": dict(sorted(defs.items())),
    }


class TableStartRequest(KeepsUnknown):
    """A new table session (``POST /v1/table/start``): the human seats and the engines' agent.
    Unknown fields are kept aside and named in the first view's ``notes``, as a hint's are: a
    misspelt ``optons`` or ``humnas`` started a game of the defaults without a word."""

    game: str = Field(min_length=1, max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    humans: list[StrictInt] = Field(
        default_factory=lambda: [0], min_length=1, max_length=64,
        description="the seats people play (several: hot seat); the others are engine seats",
    )  # fmt: skip
    agent: str | None = Field(
        default=None, min_length=1, max_length=32,
        description="the engine seats' agent (default, or null: the strongest; \"\" is refused)",
    )  # fmt: skip
    iterations: StrictInt | None = Field(
        default=None, ge=1, le=100_000, description="the agent's simulations a move"
    )
    seed: StrictInt = Field(default=0, ge=0, le=2**63 - 1, description="chance and the engines")
    seconds: _Positive | None = Field(
        default=None,
        description="the seconds of one step's engine play (default and cap: the server's "
        "--max-seconds): the searches stop at it with what they have, and the engines left to "
        "move go on at the next view (enginePending)",
    )


class TableMoveRequest(KeepsUnknown):
    """A human seat's move in a session (``POST /v1/table/move``); unknown fields are named in
    its view's ``notes``, as a table start's are."""

    session: str = Field(min_length=1, max_length=64)
    action: StrictInt = Field(ge=0)


class TableSessionRequest(KeepsUnknown):
    """A session named (``/v1/table/view``, ``/takeback``, ``/record``, ``/line``, ``/hint``);
    unknown fields are named in the answer's ``notes`` (a record's carries ``notes`` only then:
    otherwise it is ``play --record``'s shape, the file the web table saves)."""

    session: str = Field(min_length=1, max_length=64)


class TableRecordRequest(TableSessionRequest):
    """A session's record (``POST /v1/table/record``): once the game is over, or with
    ``unfinished`` before it (the record so far, ``"finished": false``: the web table's "Save the
    game" mid-game; where the game hides cards, the record holds every seat's, so the session is
    then left: no move, take back or view follows)."""

    unfinished: StrictBool = Field(
        default=False, description="give the record so far though the game is not over"
    )


class TableLineRequest(TableSessionRequest):
    """The hinted line drawn on a session's picture (``POST /v1/table/line``)."""

    pv: list[StrictInt] = Field(default_factory=list, max_length=256)


class TableHintRequest(TableSessionRequest):
    """A hint for the human seat to move, from its own view (``POST /v1/table/hint``)."""

    limit: HintLimit = Field(default_factory=HintLimit)
    top_k: StrictInt | None = Field(default=3, ge=1, le=1000)
