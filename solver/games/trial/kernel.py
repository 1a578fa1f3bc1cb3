"""The Trial's ``kernel`` engine (the default): the whole game compiled, ``solver._ext.trial``.

The rules run in C (``ext/trial_kernel/``, a transcription of the reference rules of this
package): legal actions, chance outcomes, apply, returns, the heuristic, the information-state
key, the redeal (``resample_hidden``) and the playout policy (the heuristic agent's rules) never
run Python per action, and the compiled searchers (``solver._ext.mcts``, ``solver._ext.ismcts``)
take its states through the kernel ABI (``docs/kernel-abi.md``, "The Trial's layout"). The
content pack is compiled once per game into C tables (:mod:`.kernel_tables`).

What a player reads is presentation: labels, ``to_json``, observations, information-state
strings and ``str`` decode the struct into the reference's state data (:mod:`.kernel_codec`,
cached per state until its next action) and call the reference's own code, so they read exactly
as the reference's; the differential tests hold the decoded data to the reference's after every
action (``tests/games/trial/test_kernel_engine.py``, ``test_engines_agree.py``). ``data`` is that
decoded copy: changing it does not change the state. A run of labels (a request's record given
as labels) is read on ``label_twin()``, the reference's state of the position kept in step, so
it costs one decode, not one per label.

There is no fallback: without the compiled module a :class:`KernelTrialGame` raises
:class:`~solver.errors.ExtensionMissingError` saying how to build it, and a pack beyond the
compiled engine's limits is refused with an :class:`~solver.errors.OptionError` naming
``engine="reference"``.

>>> game = KernelTrialGame(players=2)
>>> state = game.new_initial_state()
>>> game.engine, type(state.clone()).__name__, len(state.chance_outcomes())
('kernel', 'KernelTrialState', 3)
"""

from __future__ import annotations

from typing import Any

from solver.errors import FormatError, IllegalActionError, OptionError
from solver.games.trial import kernel_codec
from solver.games.trial.kernel_tables import compile_game
from solver.games.trial.rules import TrialGame, TrialState, integer_id
from solver.kernels import CompiledModule
from solver.rng import SplitMix64, redeal_stream

__all__ = ["KernelTrialGame", "KernelTrialState", "extension_module"]

_COMPILED = CompiledModule("trial", "the compiled Trial")


def extension_module() -> Any:
    """``solver._ext.trial`` (an ExtensionMissingError saying how to build it when absent)."""
    return _COMPILED.get()


_ext = _COMPILED.module
_GameBase: Any = _ext.TrialKernelGame if _ext is not None else object
_StateBase: Any = _ext.TrialKernelState if _ext is not None else object


class KernelTrialState(_StateBase):
    """A position of the compiled Trial (the protocol of :class:`TrialState`)."""

    game: KernelTrialGame
    history: Any
    view: dict[str, Any] | None

    # -- the protocol's checked transition (``apply_action``: C) and the C slots ---------------
    def _apply_slow(self, action: Any) -> None:
        """``apply_action`` for anything but a legal action id: the reference's error, worded
        by the reference's :meth:`~TrialState.refusal` on the decoded data, which it only reads
        (the data was deep-copied for every refusal, so that the reference's ``apply_action``
        could raise it: a copy for nothing, as the action is never applied)."""
        given, action = action, integer_id(action)
        if action is None:
            raise IllegalActionError(f"action {given!r} is not an action id (an integer)")
        if 0 <= action < self.game.layout.size and self._is_legal(action):
            self._apply(action)  # an integer not of type int (NumPy's) that is a legal id
            return
        refused = self._reference().refusal(action)
        if refused is not None:
            raise refused
        raise IllegalActionError(f"action {action} is not legal here")  # pragma: no cover

    def heuristic(self, p: int) -> float:
        """A soft share of the current fame (the reference's formula, in C)."""
        return float(self._heuristic(self._seat(p)))

    def information_state_key(self, p: int) -> int:
        """The C key of ``p``'s information state: equal exactly for equal information-state
        strings (as a 64-bit hash can be)."""
        return int(self._information_state_key(self._seat(p)))

    def resample_hidden(self, p: int, rng: SplitMix64) -> KernelTrialState:
        """A copy with what ``p`` cannot see redealt by the C redeal, from a SplitMix64 stream
        seeded with ``rng.next_u64()`` (as the compiled ISMCTS seeds it; a ``random.Random``
        is taken too, :func:`solver.rng.redeal_stream`); the history entries ``p`` did not see
        become redacted for everyone, as the reference does."""
        seat = self._seat(p)
        world: KernelTrialState = self._resample_raw(seat, redeal_stream(rng).next_u64())
        mine = str(p)
        entries = [
            e if e[0] == "*" or mine in e[0] else ("", e[2], e[2])
            for e in kernel_codec.history(self.history)
        ]
        world.history = (None, kernel_codec.raw_entries(entries)) if entries else None
        return world

    def playout_action(self, rng: Any) -> int:
        """The playout policy's action (the heuristic agent's rules in C): as
        ``PlayoutEvaluator.policy``, one draw of ``rng`` (a :class:`~solver.rng.SplitMix64`,
        advanced in place) seeds the tie-breaks."""
        action, rng.state = self._policy(rng.state)
        return int(action)

    def heuristic_action(self, rng: Any) -> int:
        """The heuristic agent's action with its tie-breaks drawn from ``rng`` itself (a
        :class:`~solver.rng.SplitMix64`, advanced in place): ``agents.heuristic_agent``'s
        choice, computed in C."""
        action, rng.state = self._heuristic_choice(rng.state)
        return int(action)

    # -- presentation: the reference's code over the decoded data ---------------------------
    @property
    def data(self) -> dict[str, Any]:
        """The reference's state data of this position (decoded, cached until the next
        action; a copy: changing it does not change the state)."""
        if self.view is None:
            self.view = kernel_codec.decode(self)
        return self.view

    @property
    def layout(self) -> Any:
        return self.game.layout

    def _reference(self) -> TrialState:
        """This position as a reference state (for presentation only)."""
        twin = TrialState.__new__(TrialState)
        twin.game, twin.layout, twin.data = self.game.reference, self.game.layout, self.data
        return twin

    def _seat(self, p: int) -> int:
        n = self.game.players
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < n:
            raise OptionError(f"player {p!r} is not a seat of this {n}-player game")
        return p

    def label_twin(self) -> TrialState:
        """This position as a reference state of its own (one decode): it labels actions as
        this state does and follows them at the reference's cost (about a tenth of a decode
        each), so a replay of labels decodes once, not once per label
        (:class:`~solver.game.LabelTwinState`)."""
        copy = self._reference().clone()  # its own data: the decoded view is this state's cache
        twin = _LabelTwin.__new__(_LabelTwin)
        twin.game, twin.layout, twin.data = copy.game, copy.layout, copy.data
        return twin

    def action_to_string(self, action: int) -> str:
        return self._reference().action_to_string(action)

    def string_to_action(self, label: str) -> int:
        return self._reference().string_to_action(label)

    def to_json(self) -> str:
        return self._reference().to_json()

    def observation(self, p: int) -> dict[str, Any]:
        return self._reference().observation(self._seat(p))

    def information_state_string(self, p: int) -> str:
        return self._reference().information_state_string(self._seat(p))

    def __str__(self) -> str:
        return str(self._reference())

    def __reduce__(self) -> Any:
        return (_restore, (self.game, self.to_json()))

    def __eq__(self, other: object) -> bool:
        """The same position: another compiled Trial state with the same saved form (the struct
        is not canonical: a loaded state numbers its cards' places afresh)."""
        if type(other) is not type(self):
            return False
        return bool(other.to_json() == self.to_json())

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return hash(self.to_json())


class _LabelTwin(TrialState):
    """A compiled state's label twin: the reference's state, its legal actions listed once per
    position (a replay asks for them twice a label: to resolve it, then to apply it)."""

    _legal: list[int] | None = None

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            self._legal = super().legal_actions()
        return list(self._legal)

    def apply_action(self, action: int) -> None:
        try:
            super().apply_action(action)
        finally:
            self._legal = None


def _restore(game: KernelTrialGame, text: str) -> KernelTrialState:
    return game.state_from_json(text)


class KernelTrialGame(_GameBase):
    """The Trial on the compiled engine (the protocol of :class:`TrialGame`)."""

    name = "trial"
    engine = "kernel"

    def __init__(self, pack: Any = None, players: int | None = 4, **options: Any):
        extension_module()  # fail before any work when the module is missing
        self.reference = TrialGame(pack, players, **options)
        self.pack = self.reference.pack
        self.players = self.reference.players
        self.board = self.reference.board
        self.layout = self.reference.layout
        self.components = self.reference.components
        self.artifact_ids = self.reference.artifact_ids
        self.deck_of = self.reference.deck_of
        self._compiled = compile_game(self.reference)
        self.state_class = KernelTrialState
        self._fill(self._compiled.tables)

    def __reduce__(self) -> Any:
        return (KernelTrialGame, (self.pack, self.players))

    def num_players(self) -> int:
        return int(self.players)

    def num_distinct_actions(self) -> int:
        return int(self.layout.size)

    def new_initial_state(self) -> KernelTrialState:
        state: KernelTrialState = self._new_state()
        return state

    def state_from_json(self, text: str) -> KernelTrialState:
        """The saved state, checked and settled by the reference's reader, as a compiled state
        (a :class:`FormatError` naming ``engine="reference"`` for one it cannot hold)."""
        return self.adopt(self.reference.state_from_json(text))

    def adopt(self, reference: TrialState) -> KernelTrialState:
        """A reference state's position (settled) as a compiled state."""
        from solver.games.trial.kernel_encode import encode

        data = reference.data
        raw = encode(self, data)
        entries = list(data.get("history", ()))
        raw["seen"] = self._blank_seen(entries)
        chain = (None, kernel_codec.raw_entries(entries)) if entries else None
        try:
            state: KernelTrialState = self._state_from_raw(raw, chain)
        except ValueError as exc:
            raise FormatError(
                f'a state the compiled Trial can hold ({exc}); load it with engine="reference"',
                line=1,
                column=1,
            ) from None
        return state
