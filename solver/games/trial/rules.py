"""The Trial of the Forest's reference rules: readable pure Python, the executable specification.

``TrialGame(pack, players)`` is the game (the content pack, ``docs/rules/trial.md``); its states
follow the shared protocol (:mod:`solver.game`): decisions of one player, chance nodes with exact
probabilities (setup, deck draws, dice), and a terminal state whose ``returns()`` give 1 to the
winner after the tie-break (shared equally if still tied) and 0 to the others. Hidden information
is explicit: ``observation(player)``, ``information_state_string(player)`` and
``resample_hidden(player, rng)``.

The state is the data ``st.data`` and a stack of steps (:mod:`.core`); the rule sections live in
their own modules, each registering the steps it needs and talking to the others only by pushing
step kinds: :mod:`.setup`, :mod:`.turns` (turn, move, paw, hand limit, days), :mod:`.cards`
(resolving cards: the effect language), :mod:`.fights`, :mod:`.locations`, :mod:`.store`,
:mod:`.expeditions`, :mod:`.camping`; below them the shared bookkeeping (:mod:`.belongings`,
:mod:`.decks`, :mod:`.history`, :mod:`.payments`, :mod:`.conditions`, :mod:`.choices`). Above:
:mod:`.scoring`, :mod:`.views` (what a player sees), :mod:`.redeal` (determinisations) and
:mod:`.saved` (the JSON document).

>>> game = TrialGame(players=2)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 3)
"""

from __future__ import annotations

import math
import operator
import os
from typing import Any

from solver.errors import FormatError, IllegalActionError, OptionError, shortened
from solver.game import CHANCE, TERMINAL
from solver.games.trial import conditions, sections, setup, turns  # noqa: F401  (sections: registers every step)
from solver.games.trial.actions import Layout
from solver.games.trial.board import Board
from solver.games.trial.content import Pack, default_pack, load_pack
from solver.games.trial.core import STEPS, Frame
from solver.games.trial.history import action_entry, track
from solver.games.trial.saved import document, read_state
from solver.rng import SplitMix64, redeal_stream

__all__ = ["TrialGame", "TrialState"]

HEURISTIC_SPREAD = 4.0
"""Fame points that multiply a player's heuristic weight by e (about two deed cards)."""


class TrialGame:
    """The Trial for ``players`` adventurers (2–4) on a content pack (default: the shipped one).

    >>> TrialGame(players=3).num_players()
    3
    """

    name = "trial"
    engine = "reference"
    playable = staticmethod(conditions.playable)
    """Whether a player may resolve a card now (the turn step asks it of every card in hand and
    every encounter): :func:`conditions.playable`; the kernel engine offers a compiled twin."""

    def __init__(self, pack: Pack | str | None = None, players: int | None = 4, **options: Any):
        if options:
            raise OptionError(
                f"unknown trial option(s): {', '.join(sorted(options))} (expected players, "
                "pack or engine)"
            )
        if players is None:  # not given (load_game("trial", players=None)): the default 4
            players = 4
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise OptionError(f"the Trial is played by 2 to 4 players, not {players!r}")
        if pack is None:
            pack = default_pack()
        elif not isinstance(pack, Pack):
            if not isinstance(pack, (str, os.PathLike)):
                raise OptionError(f"pack must be a Pack or a pack folder's path, not {pack!r}")
            pack = load_pack(pack)
        self.pack = pack
        self.players = players
        self.board = Board(pack)
        self.layout = Layout(pack)
        self.components = pack.components
        self.artifact_ids = {a["id"] for a in pack.artifacts}
        self.deck_of: dict[str, str] = {c["id"]: "deeds" for c in pack.deeds}
        self.deck_of.update({c["id"]: "encounters" for c in pack.encounters})
        self.deck_of.update({c["id"]: f"exp:{c['area']}" for c in pack.expeditions})

    def num_players(self) -> int:
        return self.players

    def num_distinct_actions(self) -> int:
        return self.layout.size

    def new_initial_state(self) -> TrialState:
        return TrialState(self, setup.initial_data(self))

    def state_from_json(self, text: str) -> TrialState:
        """The state saved by :meth:`TrialState.to_json` (or by an earlier version: see
        :mod:`.saved`), checked before play."""
        data = read_state(self, text)
        try:
            built = TrialState(self, data)
            built.legal_actions()
            built.current_player()
        except (KeyError, TypeError, ValueError, IndexError, AttributeError, AssertionError) as exc:
            raise FormatError(
                "a consistent trial state", line=1, column=1, found=f"{type(exc).__name__}: {exc}"
            ) from None
        return built


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, scalars), faster than ``deepcopy``."""
    if type(value) is dict:
        return {k: _copy(v) for k, v in value.items()}
    if type(value) is list:
        return [_copy(v) for v in value]
    return value


def integer_id(action: Any) -> int | None:
    """``action`` as a plain int when it is an integer (NumPy's too: ``np.random.choice`` of the
    legal actions gives one, which the dog and guardians took and the Trial refused), else
    ``None`` (a bool, a float, a text: no action id)."""
    if isinstance(action, bool):
        return None
    try:
        return operator.index(action)
    except TypeError:
        return None


class TrialState:
    """One position of the Trial (see the module docstring)."""

    def __init__(self, game: TrialGame, data: dict[str, Any]):
        self.game = game
        self.layout = game.layout
        self.data = data
        data["history"] = tuple(tuple(e) for e in data.get("history", ()))
        data["card_knowledge"] = tuple(tuple(e) for e in data.get("card_knowledge", ()))
        self._settle()

    # -- the step machine ---------------------------------------------------------------------
    def _top(self) -> Frame | None:
        return self.data["stack"][-1] if self.data["stack"] else None

    def _settle(self) -> None:
        """Run automatic steps and drop steps with nothing to decide, until a decision, a chance
        node or the end."""
        while True:
            frame = self._top()
            if frame is None:
                if not self.data["game_over"]:
                    turns.next_turn(self)
                    continue
                return
            handler = STEPS[frame["step"]]
            if getattr(handler, "auto", False):
                handler.run(self, frame)
            elif getattr(handler, "chance", False):
                if handler.outcomes(self, frame):
                    return
                self.data["stack"].pop()
            else:
                if handler.legal(self, frame):
                    return
                self.data["stack"].pop()

    # -- protocol -----------------------------------------------------------------------------
    def get_game(self) -> TrialGame:
        """The game this state belongs to (as OpenSpiel's ``State.get_game()``)."""
        return self.game

    def current_player(self) -> int:
        frame = self._top()
        if frame is None:
            return TERMINAL
        handler = STEPS[frame["step"]]
        if getattr(handler, "chance", False):
            return CHANCE
        who = getattr(handler, "who", None)
        return int(who(self, frame) if who else frame["player"])

    def is_terminal(self) -> bool:
        return self._top() is None

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def legal_actions(self) -> list[int]:
        frame = self._top()
        if frame is None:
            return []
        handler = STEPS[frame["step"]]
        if getattr(handler, "chance", False):
            return [a for a, _ in handler.outcomes(self, frame)]
        return sorted(set(handler.legal(self, frame)))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        frame = self._top()
        if frame is None or not getattr(STEPS[frame["step"]], "chance", False):
            return []
        return list(STEPS[frame["step"]].outcomes(self, frame))

    def apply_action(self, action: int) -> None:
        refused = self.refusal(action)
        if refused is not None:
            raise refused
        self.apply_legal(int(action))

    def refusal(self, action: Any) -> IllegalActionError | None:
        """The error :meth:`apply_action` raises for ``action`` here (not an id, or not legal:
        the step and the legal actions named), or ``None`` when it is legal; the state is only
        read. The compiled engine words its refusals by it on its decoded data, with no copy of
        the state (it deep-copied it to let this method's caller raise)."""
        given, action = action, integer_id(action)
        if action is None:
            return IllegalActionError(f"action {given!r} is not an action id (an integer)")
        legal = self.legal_actions()
        if action in legal:
            return None
        return IllegalActionError(
            f"action {action} ({self._label(action)}) is not legal here "
            f"(step {self._step_name()}, legal: {', '.join(self._label(a) for a in legal)})"
        )

    def apply_legal(self, action: int) -> None:
        """:meth:`apply_action` for an action known to be legal here (one of this state's
        :meth:`legal_actions`, or a chance outcome drawn from :meth:`chance_outcomes`), not
        checked again. For the Trial's own playouts and the heuristic agent's look-ahead, which
        pick among the legal actions just listed: checking cost them a third listing of the
        legal actions a step, a seventh of a heavy-playout search
        (``bench/results/trial-reference-speed.md``)."""
        frame = self._top()
        assert frame is not None
        actor = self.current_player()
        entry = action_entry(self, frame, actor, action)
        self.data["history"] = (*self.data["history"], entry)
        top = self.data["decks"][frame["deck"]]["top"] if frame["step"] == "draw" else None
        STEPS[frame["step"]].apply(self, frame, action)
        track(self, frame, actor, action, entry, top["viewers"] if top else None)
        self._settle()

    def _step_name(self) -> str:
        frame = self._top()
        return "over" if frame is None else str(frame["step"])

    def _label(self, action: int) -> str:
        try:
            return self.layout.label(action)
        except ValueError:
            return str(action)

    def _seat(self, p: int) -> int:
        """``p`` if it is a seat of this game (an :class:`OptionError` otherwise)."""
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < self.data["player_count"]:
            raise OptionError(
                f"player {p!r} is not a seat of this {self.data['player_count']}-player game"
            )
        return p

    def action_to_string(self, action: int) -> str:
        """A readable label: what the action does at the current step. Any action id has one:
        an id the step does not offer (another family, an index past the step's list) reads as
        the step's name and the id's state-free label, as the other games label any id."""
        size = self.layout.size
        given, action = action, integer_id(action)  # type: ignore[assignment]
        if action is None or not 0 <= action < size:
            raise IllegalActionError(f"{given!r} is not a trial action id (0..{size - 1})")
        frame = self._top()
        base = self._label(action)
        if frame is None:
            return base
        describe = getattr(STEPS[frame["step"]], "describe", None)
        try:
            text = describe(self, frame, action) if describe else None
        except (IndexError, KeyError):  # a step's words index its own family's lists only
            text = None
        return text or f"{frame['step']}: {base}"

    def string_to_action(self, label: str) -> int:
        """The legal action labelled ``label``: its label, its state-free label (``done``), or
        a label it had before the labels were reworded (``fight_discard: done``, the step's
        name then the state-free label; a step's own ``legacy``): records may hold them."""
        legal = self.legal_actions()
        for a in legal:
            if self.action_to_string(a) == label:
                return a
        for a in legal:
            if self._label(a) == label or label in self._legacy_labels(a):
                return a
        raise IllegalActionError(f"no legal action is labelled {shortened(str(label))!r}")

    def _legacy_labels(self, action: int) -> tuple[str, ...]:
        frame = self._top()
        if frame is None:
            return ()
        legacy = getattr(STEPS[frame["step"]], "legacy", None)
        old = legacy(self, frame, action) if legacy else None
        olds = () if old is None else (old,) if isinstance(old, str) else tuple(old)
        return (f"{frame['step']}: {self._label(action)}", *olds)

    def clone(self) -> TrialState:
        twin = TrialState.__new__(TrialState)
        twin.game, twin.layout, twin.data = self.game, self.layout, _copy(self.data)
        return twin

    def returns(self) -> list[float]:
        from solver.games.trial.scoring import winners

        if not self.is_terminal():
            return [0.0] * self.data["player_count"]
        best = winners(self)
        return [1.0 / len(best) if p in best else 0.0 for p in range(self.data["player_count"])]

    def scores(self) -> list[int]:
        """Every player's fame as it stands (final at the end)."""
        from solver.games.trial.scoring import fame

        return [fame(self, p)["total"] for p in range(self.data["player_count"])]

    def heuristic(self, p: int) -> float:
        """A cheap estimate of ``p``'s chance to win: a soft share of the current fame (used by
        the shared MCTS as its leaf evaluator instead of ~500-action random rollouts)."""
        return self.heuristics()[p]

    def heuristics(self) -> list[float]:
        """Every player's :meth:`heuristic`, each player's fame scored once: the shared
        evaluators value a leaf for every seat through this when a state offers it (asked a
        seat at a time, the 4-player leaf scored 16 fames where 4 do)."""
        if self.is_terminal():
            return self.returns()
        from solver.games.trial.scoring import fame

        totals = [fame(self, q)["total"] for q in range(self.data["player_count"])]
        top = max(totals)
        weights = [math.exp((t - top) / HEURISTIC_SPREAD) for t in totals]
        whole = sum(weights)
        return [w / whole for w in weights]

    def to_json(self) -> str:
        """The state as a saved document (:mod:`.saved`, format 2)."""
        return document(self.data)

    def __str__(self) -> str:
        from solver.games.trial.views import describe

        return describe(self)

    # -- hidden information -------------------------------------------------------------------
    def observation(self, p: int) -> dict[str, Any]:
        """What player ``p`` sees (their own hand and tents; every other hidden thing as counts)."""
        from solver.games.trial.views import observation

        return observation(self, self._seat(p))

    def information_state_string(self, p: int) -> str:
        """Player ``p``'s information state (perfect recall): every action and revelation in
        order as ``p`` saw it (their own actions and draws in full, other players' public actions,
        hidden ones redacted), then the current observation. Equal for two histories ``p`` cannot
        tell apart."""
        from solver.games.trial.views import information_state

        return information_state(self, self._seat(p))

    def resample_hidden(self, p: int, rng: SplitMix64) -> TrialState:
        """A copy with everything hidden from ``p`` redealt at random, consistent with what ``p``
        sees (hands and face-down cards of others, deck contents, unseen tents and ruin items).
        ``rng``: a :class:`SplitMix64` or a ``random.Random`` (``solver.rng.redeal_stream``)."""
        from solver.games.trial.redeal import resample

        seat = self._seat(p)
        return resample(self, seat, redeal_stream(rng))
