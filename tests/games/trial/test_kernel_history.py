"""The compiled Trial's history chain as the Python face decodes it
(``solver.games.trial.kernel_codec.history``): the same entries as reading every record, and each
record read once when a game is replayed action by action (it was read once per later action)."""

from __future__ import annotations

import random

import pytest

import solver
from solver.game import sample_chance
from solver.games.trial import kernel_codec
from solver.rng import SplitMix64


def _records(chain: object) -> list[bytes]:
    """A chain's records, newest first."""
    records = []
    while chain is not None:
        chain, raw = chain  # type: ignore[misc]
        records.append(raw)
    return records


def _walk(chain: object) -> tuple[tuple[str, str, str], ...]:
    """The entries of a chain, every record read (the independent twin of ``history``)."""
    read = kernel_codec.read_entries
    return tuple(e for raw in reversed(_records(chain)) for e in read(raw))


def _game_states(seed: int, players: int = 3, limit: int = 250) -> list[object]:
    game = solver.load_game("trial", players=players, engine="kernel")
    state, rng, pick = game.new_initial_state(), SplitMix64(seed), random.Random(seed)
    states = [state.clone()]
    while not state.is_terminal() and len(states) < limit:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(pick.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize("seed", [1, 2])
def test_every_prefix_decodes_to_its_records_entries(require_kernels, seed):
    states = _game_states(seed)
    # decoded out of order too: a later chain known first must not lend its entries to an earlier
    order = list(range(len(states)))
    random.Random(seed).shuffle(order)
    for i in order + list(range(len(states))):
        chain = states[i].history  # type: ignore[attr-defined]
        assert kernel_codec.history(chain) == _walk(chain)


def test_diverging_copies_keep_their_own_histories(require_kernels):
    states = _game_states(5, limit=120)
    base = states[60]
    left, right = base.clone(), base.clone()  # type: ignore[attr-defined]
    for state, pick in ((left, random.Random(1)), (right, random.Random(2))):
        rng = SplitMix64(9)
        for _ in range(40):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(
                sample_chance(state, rng) if state.is_chance_node() else pick.choice(legal)
            )
            assert kernel_codec.history(state.history) == _walk(state.history)
    assert kernel_codec.history(base.history) == _walk(base.history)  # type: ignore[attr-defined]


def test_decoding_every_state_of_a_game_reads_each_record_once(require_kernels, monkeypatch):
    states = _game_states(3, players=4, limit=300)
    final = states[-1]
    chain = final.history  # type: ignore[attr-defined]
    records = len(_records(chain))
    reads: list[bytes] = []
    plain = kernel_codec.read_entries

    def counted(raw: bytes) -> tuple[tuple[str, str, str], ...]:
        reads.append(raw)
        return plain(raw)

    monkeypatch.setattr(kernel_codec, "entries_of", counted)
    kernel_codec._HISTORIES.clear()
    for state in states:
        state.view = None  # type: ignore[attr-defined]  # decode afresh, as a new state does
        state.data  # type: ignore[attr-defined]  # noqa: B018  (decodes the history)
    # one decode an action, as replaying a game by its labels does: each record read once (they
    # were read n²/2 times, every decode walking the whole chain)
    assert len(reads) == records


def test_histories_given_whole_are_not_hoarded():
    """A state given with its history (its JSON) holds it in one record, as large as the request:
    decoding many such states keeps a bounded number of bytes, not every record seen (the caches
    held 8192 records and 64 chains of any length: gigabytes in a long-running engine)."""
    import gc
    import tracemalloc

    kernel_codec._HISTORIES.clear()
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        for k in range(60):  # 60 histories of about 1 MB each
            entries = [("*", f"given {k}.{i} " + "x" * 2000, "") for i in range(500)]
            chain = (None, kernel_codec.raw_entries(entries))
            assert kernel_codec.history(chain) == tuple(entries)
            del entries, chain
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
        kernel_codec._HISTORIES.clear()
    assert held < 48 << 20, held
