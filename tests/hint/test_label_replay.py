"""A request's actions given as labels cost the compiled Trial one decode of its state, not one
per label (a 608-label record took 0.5 s of a 0.1 s hint's budget to replay: every label was
resolved by decoding the struct into the reference's data to describe the legal actions).

The replay now reads labels on the state's label twin (``label_twin()``: the reference's state of
the position, made once, kept in step). Checked: the twin labels every legal action as the
compiled state does along seeded games (the property the replay relies on); a record replayed as
labels reaches the same position, ids and move list as the same record as ids; and the replay
decodes the struct once however many labels it reads (the count of decodes, not the clock).
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

import solver
from solver.games.trial import kernel_codec
from solver.hint.position import open_position
from solver.testing import random_action

pytestmark = pytest.mark.usefixtures("require_kernels")


def _record(players: int, seed: int, length: int) -> tuple[list[int], list[str]]:
    """A seeded random Trial record on the compiled engine: its ids and their labels."""
    state = solver.load_game("trial", players=players, engine="kernel").new_initial_state()
    rng = random.Random(seed)
    ids, labels = [], []
    while not state.is_terminal() and len(ids) < length:
        action = random_action(state, rng)
        labels.append(state.action_to_string(action))
        ids.append(action)
        state.apply_action(action)
    return ids, labels


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 2)])
def test_the_twin_labels_as_the_compiled_state_does_along_a_game(players: int, seed: int) -> None:
    state = solver.load_game("trial", players=players, engine="kernel").new_initial_state()
    twin = state.label_twin()
    rng = random.Random(seed)
    for step in range(250):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        assert twin.legal_actions() == legal, step
        assert [twin.action_to_string(a) for a in legal] == [
            state.action_to_string(a) for a in legal
        ], step
        action = random_action(state, rng)
        state.apply_action(action)
        twin.apply_action(action)
    assert twin.is_terminal() == state.is_terminal()


def _ask(actions: list) -> SimpleNamespace:
    return SimpleNamespace(game="trial", engine="kernel", options={"players": 4}, state=None,
                           actions=actions)  # fmt: skip


def test_labels_replay_to_the_position_their_ids_reach() -> None:
    ids, labels = _record(4, 3, 300)
    mixed = [label if i % 3 else ids[i] for i, label in enumerate(labels)]
    by_ids = open_position(_ask(ids), labels_from=250)
    for actions in (labels, mixed):
        by_labels = open_position(_ask(actions), labels_from=250)
        assert by_labels.actions == ids
        assert by_labels.state.to_json() == by_ids.state.to_json()
        assert by_labels.line == by_ids.line
    assert [entry["label"] for entry in by_ids.line] == labels[250:]


def test_a_replay_of_labels_decodes_the_state_once(monkeypatch: pytest.MonkeyPatch) -> None:
    ids, labels = _record(4, 4, 200)
    calls = []
    decode = kernel_codec.decode

    def counted(state):  # type: ignore[no-untyped-def]
        calls.append(1)
        return decode(state)

    monkeypatch.setattr(kernel_codec, "decode", counted)
    opened = open_position(_ask(labels), labels_from=0)
    assert opened.actions == ids
    assert [entry["label"] for entry in opened.line] == labels
    assert len(calls) == 1
