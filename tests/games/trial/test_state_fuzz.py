"""Malformed saved states: every one is refused at load with a :class:`FormatError` naming the
field, or plays on; none crashes later, during play or search.

Targeted cases, one per class of defect found by fuzzing (a value of the wrong kind in a top-level
field, a short encounter row, an unknown card, components that no longer add up), then a seeded
fuzz: one to three random edits of states saved mid-game, each either refused at load or played
for 200 random actions on both engines.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from solver.errors import FormatError, SolverError
from solver.fuzzing import mutate_json
from solver.games.trial.kernel import KernelTrialGame
from solver.games.trial.rules import TrialGame, TrialState
from solver.rng import SplitMix64
from solver.testing import random_action

GAMES = {(e, n): (TrialGame if e == "reference" else KernelTrialGame)(players=n)
         for e in ("reference", "kernel") for n in (2, 3, 4)}  # fmt: skip


def saved(players: int, seed: int, actions: int) -> dict[str, Any]:
    """The JSON of a state ``actions`` random actions into a game."""
    rng = random.Random(seed)
    st = GAMES["reference", players].new_initial_state()
    for _ in range(actions):
        if st.is_terminal():
            break
        st.apply_action(random_action(st, rng, by_probability=False))
    return json.loads(st.to_json())


def load(doc: dict[str, Any], engine: str = "reference", players: int = 2) -> TrialState:
    return GAMES[engine, players].state_from_json(json.dumps(doc))


def saved_with(step: str, actions: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The first saved 2-player state (seeds 0-299, ``actions`` random actions in) with a
    ``step`` frame on its stack, and those frames (the state's own dictionaries)."""
    for seed in range(300):
        doc = saved(2, seed, actions)
        frames = [f for f in doc["state"]["stack"] if f["step"] == step]
        if frames:
            return doc, frames
    raise AssertionError(f"no {step} step in 300 games")


MID = saved(2, 7, 200)
assert MID["state"]["stack"] and not MID["state"]["game_over"]  # mid-game


def edit(**changes: Any) -> dict[str, Any]:
    doc = copy.deepcopy(MID)
    doc["state"].update(changes)
    return doc


def in_a_fight() -> dict[str, Any]:
    for seed in range(200):
        doc = saved(2, seed, 300)
        if any(f["step"] == "fight" for f in doc["state"]["stack"]):
            return doc
    raise AssertionError("no fight in 200 games")


def test_an_unchanged_saved_state_loads_on_both_engines():
    for engine in ("reference", "kernel"):
        assert json.loads(load(MID, engine).to_json()) == MID


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"camp_tents": "over"}, "camp_tents"),
        ({"tunnels": True}, "tunnels"),
        ({"tray": -1}, "tray"),
        ({"decks": True}, "decks"),
        ({"encounter_row": [1, 2, 3, "forest"]}, "encounter_row"),
        ({"day": 0}, "day"),
        ({"first_player": 2}, "first_player"),
        ({"turn_player": "0"}, "turn_player"),
        ({"game_over": 0}, "game_over"),
        ({"tunnel_tokens": 3}, "tunnel_tokens"),
        ({"artifacts_available": ["no-such-artifact"]}, "artifacts_available[0]"),
        ({"legendary": {"trader": 5, "pioneer": None, "fighter": None}}, "legendary.trader"),
        ({"tiles": {}}, "tiles"),
        ({"store": [[[], [], [], []]]}, "store"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_top_level_field_of_the_wrong_kind_is_named(changes, field):
    pattern = field.replace("[", r"\[").replace("]", r"\]").replace(".", r"\.")
    with pytest.raises(FormatError, match=rf"state field {pattern} "):
        load(edit(**changes))


def test_a_short_encounter_row_or_an_unknown_card_is_named():
    doc = copy.deepcopy(MID)
    del doc["state"]["encounter_row"][1]
    with pytest.raises(FormatError, match="state field encounter_row "):
        load(doc)
    doc = copy.deepcopy(MID)
    doc["state"]["players"][1]["hand"].append("deed-99")
    with pytest.raises(FormatError, match=r"state field players\[1\]\.hand\[\d+\] "):
        load(doc)


def test_a_player_field_of_the_wrong_kind_is_named():
    for key, value, field in [
        ("food", {"acorn": 1}, r"players\[0\]\.food "),
        ("morality", 9, r"players\[0\]\.morality "),
        ("space", "nowhere", r"players\[0\]\.space "),
        ("story", [["deed-01", True]], r"players\[0\]\.story\[0\] "),
        ("flags", {"swamps": None}, r"players\[0\]\.flags "),
    ]:
        doc = copy.deepcopy(MID)
        doc["state"]["players"][0][key] = value
        with pytest.raises(FormatError, match=f"state field {field}"):
            load(doc)


def test_components_that_do_not_add_up_are_refused():
    doc = copy.deepcopy(MID)
    doc["state"]["box"]["tents"] += ["none"] * 3  # a tent invented
    with pytest.raises(FormatError, match="tents not conserved"):
        load(doc)
    doc = copy.deepcopy(MID)
    doc["state"]["tray"]["acorn"] += 1  # food invented
    with pytest.raises(FormatError, match="acorn not conserved"):
        load(doc)
    doc = copy.deepcopy(MID)
    doc["state"]["encounter_row"][0] = doc["state"]["encounter_row"][1]  # a card lies twice
    with pytest.raises(FormatError, match=r"lies twice|lost or invented"):
        load(doc)


def test_a_fight_frame_with_unknown_face_down_cards_is_named():
    doc = in_a_fight()
    frame = next(f for f in doc["state"]["stack"] if f["step"] == "fight")
    i = doc["state"]["stack"].index(frame)
    frame["face_down"] = [["not-a-card"], []]
    with pytest.raises(FormatError, match=rf"state field stack\[{i}\]\.face_down"):
        load(doc)
    frame["face_down"] = [[], []]
    frame["spare"] = 1  # a field no fight step has
    with pytest.raises(FormatError, match=rf"state field stack\[{i}\]\.spare"):
        load(doc)


# -- the seeded fuzz ---------------------------------------------------------------------------
ODD = [0, -1, 1, 10**6, None, True, "x", [], {}, 1.5, "over", [0, 0], [1, 2, 3, "forest"]]


def mutate(rng: random.Random, value: Any) -> Any:
    """``value`` with one random edit somewhere inside (delete, duplicate, replace, nudge)."""
    return mutate_json(rng, value, odd=ODD, descend=0.75, nudges=(-1, 1, -100, 100, 1000))


def play(st: TrialState, rng: random.Random, actions: int) -> None:
    for _ in range(actions):
        if st.is_terminal():
            break
        st.apply_action(random_action(st, rng, by_probability=False))
        st.observation(st.data["player_count"] - 1)
    st.returns()
    str(st)


def fuzz(seed: int, count: int, actions: int = 200, stack_only: bool = False) -> dict[str, int]:
    rng = random.Random(seed)
    tally = {"refused": 0, "played": 0}
    for _ in range(count):
        players = rng.choice([2, 3, 4])
        doc = saved(players, rng.randrange(10**6), rng.randrange(0, 600))
        for _ in range(rng.randint(1, 3)):
            if stack_only and doc["state"].get("stack"):
                doc["state"]["stack"] = mutate(rng, doc["state"]["stack"])
            else:
                doc["state"] = mutate(rng, doc["state"])
        doc = json.loads(json.dumps(doc))
        played = False
        for engine in ("reference", "kernel"):
            try:
                st = load(doc, engine, players)
            except FormatError:
                continue
            try:
                play(st, random.Random(seed), actions)
                played = True
            except SolverError as exc:  # an illegal action would be a bug
                raise AssertionError(f"{engine}: {exc}") from None
        tally["played" if played else "refused"] += 1
    return tally


def test_randomly_edited_states_are_refused_or_play():
    tally = fuzz(20261130, 40)
    assert tally["refused"] >= 20, tally


def test_randomly_edited_steps_are_refused_or_play():
    tally = fuzz(11, 20, stack_only=True)
    assert tally["refused"] >= 5 and tally["played"] >= 1, tally


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_many_randomly_edited_states_are_refused_or_play(seed):
    tally = fuzz(seed, 300)
    tally_stack = fuzz(seed + 100, 300, stack_only=True)
    assert tally["refused"] >= 100 and tally_stack["played"] >= 10, (tally, tally_stack)


def test_every_push_in_the_rules_gives_declared_fields_and_every_required_one():
    """Each ``push(st, "kind", field=...)`` call of the rules' source names only fields its step
    class declares, and all the required ones (read from the source, not run)."""
    import ast
    from pathlib import Path

    import solver.games.trial as package
    from solver.games.trial.core import REQUIRED, STEPS
    from solver.games.trial.state_check import frame_fields

    calls = 0
    for path in Path(package.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "push"
                and len(node.args) >= 2
                and isinstance(node.args[1], ast.Constant)
            ):
                continue
            kind = node.args[1].value
            assert kind in STEPS, (path.name, node.lineno, kind)
            if any(k.arg is None for k in node.keywords):
                continue  # **fields: checked when pushed
            given = {k.arg for k in node.keywords}
            declared = STEPS[kind].fields
            required = {n for n, (default, _) in declared.items() if default is REQUIRED}
            assert given <= set(declared), (path.name, node.lineno, given - set(declared))
            assert required <= given, (path.name, node.lineno, required - given)
            calls += 1
    assert calls > 80
    fields = frame_fields()
    assert set(fields) == set(STEPS)
    assert all(meaning for cls in STEPS.values() for _, meaning in cls.fields.values())


def test_a_die_roll_without_the_step_it_rolls_for_is_refused():
    doc = in_a_fight()
    stack = doc["state"]["stack"]
    i = next(i for i, f in enumerate(stack) if f["step"] == "fight")
    stack.append({"step": "die", "player": 0, "parent": "roll", "side": 0, "purpose": "strength"})
    with pytest.raises(FormatError, match=r"a die step above a roll step"):
        load(doc)
    stack[-1]["parent"] = "fight"
    del stack[i]
    with pytest.raises(FormatError):
        load(doc)


def test_a_path_outside_its_card_is_refused():
    doc, frames = saved_with("effects", 250)
    frames[0]["path"] = [*frames[0]["path"], 99]
    with pytest.raises(FormatError, match=r"\.path to be a path"):
        load(doc)


def test_set_up_steps_out_of_their_order_are_refused():
    # Defect (found by attack): a second setup_done pushed on top of a state in its set-up loaded
    # on both engines; the reference ran it first, dropping the set-up pools, and the next stock
    # step raised KeyError 'setup_pool' (a 500 'internal' over the hint service).
    doc = saved(2, 0, 5)
    stack = doc["state"]["stack"]
    kinds = [f["step"] for f in stack]
    assert kinds[0] == "setup_done" and "stock" in kinds and "ruin_item" in kinds
    load(doc)  # the state as the set-up left it
    for engine in ("reference", "kernel"):
        edited = copy.deepcopy(doc)
        edited["state"]["stack"].append({"step": "setup_done"})
        with pytest.raises(FormatError, match="one setup_done step at most"):
            load(edited, engine)
        edited = copy.deepcopy(doc)  # a stock step below the setup_done: run after the pools went
        edited["state"]["stack"].insert(0, next(f for f in stack if f["step"] == "stock"))
        with pytest.raises(FormatError, match="above the setup_done step"):
            load(edited, engine)
        edited = copy.deepcopy(doc)
        del edited["state"]["setup_pool"]
        with pytest.raises(FormatError, match="present in setup_pool"):
            load(edited, engine)


def test_a_frame_count_past_a_byte_is_refused_on_both_engines():
    # Defect (found by attack): a move step's base, extra or cards of 256 to 1000 loaded on the
    # reference while the kernel's encoding raised OverflowError (500 'internal' over the hint
    # service). Both engines refuse it now, and load the same frame at the largest count.
    doc, _ = saved_with("move", 300)
    for field in ("base", "extra", "cards"):
        edited = copy.deepcopy(doc)
        move = next(f for f in edited["state"]["stack"] if f["step"] == "move")
        for value, taken in ((256, False), (1000, False), (254, True)):
            move[field] = value
            for engine in ("reference", "kernel"):
                if taken:
                    assert load(edited, engine) is not None
                else:
                    with pytest.raises(FormatError, match=rf"\.{field} to be an integer"):
                        load(edited, engine)


def test_an_effects_step_pointed_at_a_choice_s_options_is_refused():
    # Defect (found by attack): an effects frame's path may lead to any non-empty list, and a
    # choice's options are one: ["effect", 0, "choose"] of encounter-17 loaded, and the reference
    # ran the second option's 'morality' as a verb (TypeError: int + str; a 500 over the hint
    # service). The options are a list of labelled choices, not of effects.
    card = GAMES["reference", 2].pack.card("encounter-17")
    options = card["effect"][0]["choose"]
    assert len(options) == 2 and all("label" in option for option in options)
    doc, frames = saved_with("effects", 250)
    frames[0].update(card="encounter-17", path=["effect", 0, "choose"], next=1)
    for engine in ("reference", "kernel"):
        with pytest.raises(FormatError, match=r"\.path to be a path to a list of effects"):
            load(doc, engine)
    frames[0].update(path=["effect"], next=0)  # the card's own effect list
    assert load(doc) is not None


def test_a_fight_against_no_foe_is_refused():
    # Defect (found by attack): a fight frame with no defender (a fight against the card's foe)
    # whose path is [] (the card itself, as a duel's is: a duel's frame with its defender set to
    # null) loaded, and the kernel's ISMCTS then read past its tables: a segfault on the second
    # search of it in a process (over HTTP a worker's death). A foe fight's path leads to the foe.
    for seed in range(300):
        doc = saved(2, seed, 300)
        fights = [f for f in doc["state"]["stack"] if f["step"] == "fight"]
        if fights and fights[0]["defender"] is None:
            break
    else:
        raise AssertionError("no fight against a foe in 300 games")
    fight = fights[0]
    assert fight["path"][-1] == "fight"  # the card's foe
    load(doc)
    fight["path"] = []
    for engine in ("reference", "kernel"):
        with pytest.raises(FormatError, match=r"\.path to be a path to the card's foe"):
            load(doc, engine)


# -- API mistakes are solver errors --------------------------------------------------------------
def test_api_mistakes_raise_solver_errors():
    from solver.errors import IllegalActionError, OptionError
    from solver.registry import load_game

    for engine in ("reference", "kernel"):
        with pytest.raises(OptionError, match="pack must be"):
            load_game("trial", engine=engine, pack=3)
        game = GAMES[engine, 2]
        st = game.new_initial_state()
        size = game.num_distinct_actions()
        for action in (size, -1, 10**6, "1", True):
            with pytest.raises(IllegalActionError, match="not a trial action id"):
                st.action_to_string(action)  # type: ignore[arg-type]
        assert st.action_to_string(st.legal_actions()[0])  # in range: a label
        with pytest.raises(FormatError, match="a JSON text"):
            game.state_from_json(None)  # type: ignore[arg-type]
        with pytest.raises(FormatError, match="nested too deeply"):
            game.state_from_json('{"game": "trial", "state": ' + "[" * 100000)
        for seat in (2, 5, -1, True, "0"):
            with pytest.raises(OptionError, match="not a seat"):
                st.observation(seat)  # type: ignore[arg-type]
            with pytest.raises(OptionError, match="not a seat"):
                st.information_state_string(seat)  # type: ignore[arg-type]
            with pytest.raises(OptionError, match="not a seat"):
                st.resample_hidden(seat, SplitMix64(0))  # type: ignore[arg-type]


# -- plausible edits: a value swapped for another of the same kind found in the state ----------
def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [leaf for i, v in enumerate(value) for leaf in _leaves(v, (*path, i))]
    return [(path, value)]


def plausible_fuzz(seed: int, count: int) -> dict[str, int]:
    """Edits that keep every value's kind (a flag flipped, a number moved by one, a text swapped
    for another text of the state), mostly in the waiting steps: many pass the type checks, so
    they test that what loads also plays."""
    rng = random.Random(seed)
    tally = {"refused": 0, "played": 0}
    for _ in range(count):
        players = rng.choice([2, 3, 4])
        doc = saved(players, rng.randrange(10**6), rng.randrange(0, 600))
        state = doc["state"]
        leaves = [
            (p, v) for p, v in _leaves(state) if p and p[0] not in ("history", "card_knowledge")
        ]
        if rng.random() < 0.6:
            leaves = [leaf for leaf in leaves if leaf[0][0] == "stack"] or leaves
        texts = sorted({v for _, v in leaves if isinstance(v, str)})
        path, old = rng.choice(leaves)
        if isinstance(old, bool):
            new: Any = not old
        elif isinstance(old, int):
            new = old + rng.choice([-1, 1])
        else:
            new = rng.choice([*texts, 0, 1])
        node: Any = state
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = new
        for engine in ("reference", "kernel"):
            try:
                st = load(doc, engine, players)
            except FormatError:
                tally["refused"] += 1
                continue
            try:
                play(st, random.Random(seed), 200)
            except SolverError as exc:
                raise AssertionError(f"{engine}: {path} {old!r} -> {new!r}: {exc}") from None
            tally["played"] += 1
    return tally


def test_plausible_edits_are_refused_or_play():
    tally = plausible_fuzz(5, 25)
    assert tally["refused"] >= 5 and tally["played"] >= 5, tally


@pytest.mark.slow
def test_many_plausible_edits_are_refused_or_play():
    tally = plausible_fuzz(6, 600)
    assert tally["refused"] >= 200 and tally["played"] >= 200, tally


@pytest.mark.parametrize("engine", ["reference", "kernel"])
@pytest.mark.parametrize("seen_by", ["7", "2", "01x", "-1", "**"])
def test_a_history_entry_seen_by_a_seat_not_in_the_game_is_refused(engine, seen_by):
    """Found by attack: a history entry seen by seat 7 (or by ``"x"``) of a 2-player game
    loaded as if it were a real one; the history's viewers are now checked like
    ``card_knowledge``'s."""
    doc = copy.deepcopy(MID)
    doc["state"]["history"].append([seen_by, "c:die:3", ""])
    with pytest.raises(FormatError, match="history entries seen by"):
        load(doc, engine)
    doc["state"]["history"][-1] = ["01", "c:die:3", "c:die:?"]  # not public: others see "?"
    load(doc, engine)  # both seats of the game: fine


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_slot_emptied_after_the_set_up_is_refused(engine):
    """Found by the slow fuzz: ``tiles.ruins-2`` set to null mid-game passed the checker, and a
    move onto it failed inside the rules (a TypeError). Only a slot whose ``place_tile`` step
    is still on the stack may be empty."""
    doc = copy.deepcopy(MID)
    tiles = doc["state"]["tiles"]
    assert all(tile is not None for tile in tiles.values())  # mid-game: every slot filled
    slot = sorted(tiles)[0]
    tiles[slot] = None
    with pytest.raises(FormatError, match=f"tiles.{slot}.*no place_tile step"):
        load(doc, engine)


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_a_flag_off_its_areas_finish_spaces_is_refused(engine):
    """Found by the slow fuzz: a flag on grove-2 (a space with no finish) loaded, and the final
    scoring failed with a KeyError. A flag stands on a finish space of its own area."""
    game = GAMES[engine, 2]
    board = game.board
    area = board.areas[0]
    finishes = [s for s in board.finish if board.area_of.get(s) == area]
    plain = [s for s, a in board.area_of.items() if a == area and s not in board.finish]
    other = next(s for s in board.finish if board.area_of.get(s) != area)
    assert finishes and plain  # the board has both kinds of space in the area
    for wrong in (plain[0], other):
        doc = copy.deepcopy(MID)
        doc["state"]["players"][0]["flags"][area] = wrong
        with pytest.raises(FormatError, match=f"a finish space of {area}"):
            load(doc, engine)
    doc = copy.deepcopy(MID)
    doc["state"]["players"][0]["flags"][area] = finishes[0]
    load(doc, engine)  # a flag where the rules put one: fine
