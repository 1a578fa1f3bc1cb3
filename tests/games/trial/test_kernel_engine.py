"""The compiled Trial (``ext/trial_kernel/``) against the reference rules, step by step.

The compiled state, decoded into the reference's state data (:mod:`kernel_codec`), must equal
the reference's data after every action of seeded games driven by the heuristic and random
agents (history and card record included), with the same player to move, legal actions, chance
outcomes and returns; saved states (mid-set-up, mid-game, mid-fight) load into the compiled
engine and play on identically; a pack beyond the compiled engine's limits is refused naming the
reference engine. The whole protocol, on every observable, is ``test_engines_agree.py``.
"""

from __future__ import annotations

import json
import os
import pickle
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from solver.errors import ExtensionMissingError, FormatError, IllegalActionError, OptionError
from solver.games.trial.rules import TrialGame
from solver.testing import random_action

from .engines import SEATS, actions

pytestmark = pytest.mark.usefixtures("require_kernels")


def _agree(where: str, mine, theirs) -> None:
    a, b = mine.data, theirs.data
    if a != b:
        keys = [k for k in b if a.get(k) != b[k]]
        raise AssertionError(f"{where}: the decoded state differs in {keys}")
    assert mine.current_player() == theirs.current_player(), where
    assert mine.legal_actions() == theirs.legal_actions(), where
    assert mine.chance_outcomes() == theirs.chance_outcomes(), where
    assert mine.returns() == theirs.returns(), where


def _play_on(where: str, mine, theirs, rng: random.Random, steps: int) -> None:
    """Apply the same random actions (any outcome or legal action, uniformly) to both states,
    holding them equal before each, for ``steps`` actions or to the end."""
    for step in range(steps):
        _agree(f"{where} step {step}", mine, theirs)
        if theirs.is_terminal():
            return
        legal = [a for a, _ in theirs.chance_outcomes()] or theirs.legal_actions()
        action = rng.choice(legal)
        theirs.apply_action(action)
        mine.apply_action(action)


def play_side_by_side(games, kinds: list[str], seed: int) -> int:
    ref, ker = games[len(kinds)]
    mine = ker.new_initial_state()
    for played, (theirs, action) in enumerate(actions(ref, kinds, seed)):
        _agree(f"{kinds} seed {seed} after {played} actions", mine, theirs)
        if action < 0:
            return played
        mine.apply_action(action)
    raise AssertionError("unreachable")


@pytest.mark.parametrize("kinds", SEATS, ids=lambda s: ",".join(s))
def test_the_decoded_state_is_the_references_after_every_action(games, kinds):
    assert play_side_by_side(games, kinds, seed=len(kinds) + 10) > 200


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(60))
def test_many_games_decode_to_the_references_state(games, seed):
    play_side_by_side(games, SEATS[seed % 3], seed)


def _reference_states(ref: TrialGame, seed: int, every: int):
    """Every ``every``-th state of a seeded random game of the reference."""
    rng = random.Random(seed)
    st = ref.new_initial_state()
    played = 0
    while not st.is_terminal():
        if played % every == 0:
            yield st
        st.apply_action(random_action(st, rng))
        played += 1
    yield st


def test_saved_states_load_into_the_compiled_engine_and_play_on(games):
    """Set-up, mid-turn, mid-fight, the end: each saved state decodes to the reference's data
    and plays on identically for a stretch of random actions."""
    ref, ker = games[3]
    for reference in _reference_states(ref, seed=5, every=37):
        text = reference.to_json()
        mine = ker.state_from_json(text)
        assert mine.to_json() == text
        twin = ref.state_from_json(text)
        _play_on("loaded", mine, twin, random.Random(len(text)), 40)


def test_an_illegal_action_is_refused_with_the_references_message(games):
    _, ker = games[2]
    mine = ker.new_initial_state()
    with pytest.raises(IllegalActionError, match="not legal here"):
        mine.apply_action(0)
    with pytest.raises(IllegalActionError, match="not an action id"):
        mine.apply_action("0")  # type: ignore[arg-type]


def test_a_refusal_copies_no_state_and_words_the_references_refusal(games, monkeypatch):
    """Every id that is not legal at positions along a 3-player game is refused with the
    reference engine's exact message, and the refusal leaves the state (its decoded view
    included) as it was, without deep-copying that view: it was deep-copied for every refusal,
    so that the reference's ``apply_action`` could raise (helper 100: about 2 ms a refusal)."""
    import copy

    ref, ker = games[3]
    real = copy.deepcopy
    copied: list[int] = []

    def watched(value, *args, **kw):
        copied.append(id(value))
        return real(value, *args, **kw)

    checked = 0
    for reference in _reference_states(ref, seed=11, every=29):
        if reference.is_chance_node() or reference.is_terminal():
            continue
        mine = ker.state_from_json(reference.to_json())
        view = mine.data
        before = real(view)
        legal = set(reference.legal_actions())
        for action in [a for a in range(0, ref.layout.size, 5) if a not in legal][:12]:
            with pytest.raises(IllegalActionError) as theirs:
                reference.apply_action(action)
            monkeypatch.setattr(copy, "deepcopy", watched)
            with pytest.raises(IllegalActionError) as refused:
                mine.apply_action(action)
            monkeypatch.setattr(copy, "deepcopy", real)
            assert str(refused.value) == str(theirs.value)
            assert id(view) not in copied, "the decoded view was copied to refuse an action"
            checked += 1
        assert mine.data is view and view == before
        assert mine.to_json() == reference.to_json()
    assert checked >= 24


def test_a_clone_is_a_copy(games):
    _, ker = games[2]
    st = ker.new_initial_state()
    twin = st.clone()
    twin.apply_action(twin.chance_outcomes()[0][0])
    assert st.data != twin.data and st.data == ker.new_initial_state().data


def test_a_pack_beyond_the_compiled_limits_is_refused_naming_the_reference(tmp_path):
    from solver.games.trial.content import _SOURCE_ROOT
    from solver.games.trial.kernel import KernelTrialGame

    pack = tmp_path / "pack"
    shutil.copytree(_SOURCE_ROOT, pack)
    comp = json.loads((pack / "components.json").read_text())
    comp["food_per_kind"] = 200
    (pack / "components.json").write_text(json.dumps(comp))
    TrialGame(pack=str(pack), players=2)  # the reference plays it
    with pytest.raises(OptionError, match='engine="reference"'):
        KernelTrialGame(pack=str(pack), players=2)


def test_a_saved_state_the_compiled_engine_keeps_canonical_is_refused_naming_the_reference(games):
    ref, ker = games[2]
    st = next(
        s for s in _reference_states(ref, seed=3, every=1) if s.data["turn_player"] is not None
    )
    doc = json.loads(st.to_json())
    doc["state"]["ruins"][next(iter(doc["state"]["ruins"]))]["seen_by"] = [1, 0]
    text = json.dumps(doc)
    ref.state_from_json(text)  # the reference reads it
    with pytest.raises(FormatError, match='engine="reference"'):
        ker.state_from_json(text)


def test_the_engine_is_chosen_by_name_and_opens_saved_states(tmp_path):
    from solver.registry import game_spec

    spec = game_spec("trial")
    assert spec.engine_names() == ["kernel", "reference"] and spec.default_engine == "kernel"
    opened = spec.open(None, engine="kernel", players=3)
    assert opened.game.engine == "kernel" and opened.game.num_players() == 3
    path = tmp_path / "state.json"
    path.write_text(opened.state.to_json(), encoding="utf-8")
    again = spec.open(str(path), engine="kernel")
    assert again.game.engine == "kernel" and again.state.to_json() == opened.state.to_json()
    assert spec.open(None, engine="reference").game.engine == "reference"
    with pytest.raises(OptionError, match="no 'compiled' engine"):
        spec.open(None, engine="compiled")


def test_a_kernel_game_and_its_states_pickle(games):
    game = games[2][1]
    again = pickle.loads(pickle.dumps(game))
    state = again.new_initial_state()
    assert again.engine == "kernel" and state.data == game.new_initial_state().data
    state.apply_action(state.chance_outcomes()[0][0])
    twin = pickle.loads(pickle.dumps(state))
    assert twin.to_json() == state.to_json() and twin.legal_actions() == state.legal_actions()


def test_without_the_compiled_module_the_kernel_engine_fails():
    """No fallback: a missing ``solver._ext.trial`` is an error naming the module and the fix,
    while the reference engine keeps working."""
    script = (
        "import sys\n"
        "sys.modules['solver._ext.trial'] = None  # the module 'is absent'\n"
        "import solver\n"
        "from solver.errors import ExtensionMissingError\n"
        "assert solver.load_game('trial', engine='reference', players=2).engine == 'reference'\n"
        "try:\n"
        "    solver.load_game('trial', engine='kernel', players=2)\n"
        "except ExtensionMissingError as exc:\n"
        "    print('refused:', exc)\n"
    )
    run = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "SOLVER_ENGINE": "reference"},
    )
    assert run.returncode == 0, run.stderr
    assert "refused: the compiled Trial (solver._ext.trial" in run.stdout
    assert "engine='reference'" in run.stdout
    assert issubclass(ExtensionMissingError, ImportError)


def _edited_packs(tmp_path: Path, seed: int, count: int):
    """Folders of randomly edited packs that ``check_pack`` accepts (the pack-fuzz mutator)."""
    import copy as _copy

    from solver.games.trial.content import PackError, load_pack

    from .test_pack_fuzz import BASE, FILES, mutate, write

    rng = random.Random(seed)
    for i in range(count):
        docs = _copy.deepcopy(BASE)
        for _ in range(rng.randint(1, 2)):
            name = rng.choice(FILES)
            docs[name] = mutate(rng, docs[name])
        folder = write(tmp_path / f"pack{i}", docs)
        try:
            load_pack(folder)
        except PackError:
            continue
        yield folder, rng.random()


def _packs_play_alike(tmp_path: Path, seed: int, count: int) -> int:
    from solver.games.trial.kernel import KernelTrialGame

    played = 0
    for folder, salt in _edited_packs(tmp_path, seed, count):
        rng = random.Random(salt)
        n = rng.choice([2, 3, 4])
        ref = TrialGame(pack=str(folder), players=n)
        try:
            ker = KernelTrialGame(pack=str(folder), players=n)
        except OptionError as exc:  # beyond the compiled limits: refused, naming the reference
            assert 'engine="reference"' in str(exc)
            continue
        _play_on(f"pack {folder.name}", ker.new_initial_state(), ref.new_initial_state(), rng, 300)
        played += 1
    return played


def test_edited_packs_compile_to_the_same_game(tmp_path):
    """A user's pack that passes check_pack plays the same on both engines."""
    assert _packs_play_alike(tmp_path, seed=19, count=20) >= 3


@pytest.mark.slow
def test_many_edited_packs_compile_to_the_same_game(tmp_path):
    assert _packs_play_alike(tmp_path, seed=20, count=400) >= 60


def test_equal_positions_are_equal_states(games):
    """The reference's rule (the same saved form): a copy, a pickle and a loaded state are equal
    to the state and hash alike; a state one action on is not."""
    _, ker = games[3]
    state = next(s for s in _reference_states(ker, seed=2, every=50) if not s.is_terminal())
    for same in (
        state.clone(),
        pickle.loads(pickle.dumps(state)),
        ker.state_from_json(state.to_json()),
    ):
        assert same == state and hash(same) == hash(state) and (same != state) is False
    child = state.clone()
    child.apply_action(([a for a, _ in child.chance_outcomes()] or child.legal_actions())[0])
    assert child != state and state != state.to_json()


def test_the_c_playout_loop_replays_in_python(games):
    """``random_playouts`` (the shared C loop over the kernel) plays the games the Python replay
    of ``solver.testing`` plays on the reference, draw for draw."""
    from solver._ext.trial import random_playouts as compiled

    from solver.testing import random_playouts

    for n in (2, 4):
        ref, ker = games[n]
        games_played, applied, total = random_playouts(ref, 3, 11 + n, lambda f: f.returns()[0])
        assert compiled(ker, 3, 11 + n) == (games_played, applied, int(total))


# -- the rare steps, hand-built as the reference's tests build them -------------------------------
def _lockstep(kernel_game, reference, labels: list[str]) -> None:
    """Adopt a (hand-built, settled) reference state and play ``labels`` on both engines,
    comparing after every action (labels naming no legal action play the first outcome)."""
    mine = kernel_game.adopt(reference)
    _agree("adopted", mine, reference)
    for label in labels:
        if reference.is_chance_node():
            action = reference.chance_outcomes()[0][0]
        else:
            action = reference.string_to_action(label)
        reference.apply_action(action)
        mine.apply_action(action)
        _agree(label, mine, reference)


def test_rare_steps_make_room_exhausted_and_sale_slot(games):
    from .positions import act, kettle_to_sell, mole_king_on_top, ready, set_food

    _, ker = games[2]
    # an expedition artifact that does not fit: make_room, drops, return_slot
    st = mole_king_on_top()
    act(st, "turn: paw: expedition")
    _lockstep(ker, st, ["draw", "pay with acorn", "pay with acorn",
                        "drop axe to make room for stone-tablet",
                        "drop wings to make room for stone-tablet"])  # fmt: skip
    # an exhausted expedition deck: pay two food to advance
    st = ready()
    st.data["players"][0]["space"] = "swamps-0"
    deck = st.data["decks"]["exp:swamps"]
    deck["discard"] = [c for layer in deck["layers"] for c in layer] + deck["discard"]
    deck["layers"] = []
    set_food(st, 0, raspberry=2)
    _lockstep(ker, st, ["turn: paw: expedition", "exhausted: yes", "pay with raspberry",
                        "pay with raspberry", "advance to swamps-1a"])  # fmt: skip
    # a sale with a choice of empty slots, then the gallery
    st = kettle_to_sell()
    sale = "sell kettle onto store slot row 1, column 2 for mushroom + food"
    _lockstep(ker, st, ["sell kettle", sale, "gain acorn"])


def test_blaster_rebuilds_a_collapsed_tunnel_alike(games):
    """Blaster on a collapsed printed tunnel and on a collapsed dug one (``test_effects.py``)."""
    from .test_effects import blaster_on_a_collapsed_tunnel

    _, ker = games[2]
    for space in ("path-05", "path-01"):
        _lockstep(ker, blaster_on_a_collapsed_tunnel(space), ["play Blaster", "pay with torch"])


def _resolve_in_lockstep(kernel_game, reference, card_id: str, seed: int) -> None:
    """Play ``reference`` (a card being resolved) and its compiled twin with the same random
    choices until the card is placed, comparing after every action."""
    from .test_cards import _resolving

    mine = kernel_game.adopt(reference)
    rng = random.Random(f"{card_id}/{seed}")
    steps = 0
    while _resolving(reference, card_id) and not reference.is_terminal() and steps < 500:
        _agree(f"{card_id} step {steps}", mine, reference)
        outcomes = reference.chance_outcomes()
        if outcomes:
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(reference.legal_actions())
        reference.apply_action(action)
        mine.apply_action(action)
        steps += 1
    _agree(f"{card_id} placed", mine, reference)


@pytest.mark.parametrize("seed", [0, 1])
def test_every_card_resolves_alike_on_both_engines(games, seed):
    """Each card of the pack, arranged and played as ``test_cards.py`` does, resolved with the
    same random choices on both engines: every verb of the effect language, compared after every
    action (and every expedition card that cannot be paid, with its ``unpaid`` effects)."""
    from .test_cards import PACK, arrange, helpers

    _, ker = games[2]
    for card_id in sorted(PACK.cards):
        _resolve_in_lockstep(ker, arrange(PACK.card(card_id)), card_id, seed)
    for card in PACK.expeditions:
        if "unpaid" not in card:
            continue
        st = helpers.ready(2)
        helpers.set_food(st, 0)
        helpers.set_hand(st, 0)
        st.data["players"][0]["space"] = st.game.board.area_start[card["area"]]
        deck = st.data["decks"][f"exp:{card['area']}"]
        deck["top"] = {"card": helpers.take(st, card["id"]), "viewers": []}
        helpers.act(st, "turn: paw: expedition")
        st.apply_action(st.chance_outcomes()[0][0])
        _resolve_in_lockstep(ker, st, card["id"], seed)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 40))
def test_every_card_resolves_alike_with_many_choices(games, seed):
    test_every_card_resolves_alike_on_both_engines(games, seed)
