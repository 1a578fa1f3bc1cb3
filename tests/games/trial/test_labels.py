"""The Trial's action labels read as a player says them, and the old labels still parse.

Before, a decision without its own words fell back to the step's internal name and the
action's state-free label (``fight_discard: done``, ``facedown_optional: deed-08``, ``turn: end
turn``), and a few read data names (``use the one-time card_draw tent symbol``). Records on disk
may hold those labels: ``string_to_action`` still takes them. The compiled engine labels through
the reference (``test_engines_agree.py`` compares every label along its games), so both agree.
"""

from __future__ import annotations

import random
import re

import pytest

import solver
from solver.games.trial.rules import STEPS
from solver.testing import random_action

INTERNAL = re.compile(r"\b[a-z]+_[a-z_]+\b")
"""A data name (``fight_discard``, ``card_draw``): a player never says one."""

BAD_PLURAL = re.compile(r"\(s\)|(?<![\d.])\b1 (?:symbols|cards|deed cards|items|foods)\b")
"""A count not said in words: ``draw 1 deed card(s)``, ``(1 symbols unused)`` (found by the
new-user pass)."""

OLD_TO_NEW = {
    "fight_discard": ("done", "stop discarding for strength"),
    "fight_cards": ("done", "stop playing cards face down"),
    "pick_column": ("column moral", "put it in the moral column"),
    "side": ("done", "choose evil"),
    "turn": ("end turn", "end turn"),
}
"""Old labels (the step's name, then the state-free label) and their new words, written out."""


def _nodes(players: int, seed: int, chance: bool = False) -> list[tuple[object, list[int]]]:
    """Every decision node (``chance``: every chance node) of a seeded random reference game:
    (state, its legal actions or outcomes)."""
    state = solver.load_game("trial", players=players, engine="reference").new_initial_state()
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            if chance:
                seen.append((state.clone(), [a for a, _ in outcomes]))
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = state.legal_actions()
            if not chance:
                seen.append((state.clone(), legal))
            action = rng.choice(legal)
        state.apply_action(action)
    return seen


def _decisions(players: int, seed: int) -> list[tuple[object, list[int]]]:
    return _nodes(players, seed)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (2, 4)])
def test_every_decision_label_reads_as_words_and_parses_back(players: int, seed: int) -> None:
    for state, legal in _decisions(players, seed):
        step = state._top()["step"]
        assert step in STEPS
        labels = [state.action_to_string(a) for a in legal]
        assert len(set(labels)) == len(labels), labels  # one label, one action
        for action, label in zip(legal, labels, strict=True):
            assert not INTERNAL.search(label), label
            assert not BAD_PLURAL.search(label), label
            assert label != f"{step}: {state._label(action)}", label  # the internal fallback
            assert state.string_to_action(label) == action


def test_the_old_labels_still_parse_to_the_same_action() -> None:
    found = {}
    for state, legal in _decisions(2, 1) + _decisions(3, 2) + _decisions(4, 3):
        step = state._top()["step"]
        for action in legal:
            old = f"{step}: {state._label(action)}"
            found[old] = state.action_to_string(action)
            others = [state.action_to_string(a) for a in legal if a != action]
            if old not in others:
                assert state.string_to_action(old) == action, old
    for step, (base, new) in OLD_TO_NEW.items():
        assert found.get(f"{step}: {base}") == new, (step, base)


OLD_OUTCOMES = {
    "deal_tent": re.compile(r"player \d is dealt a tent \([a-z0-9 -]+\)"),
    "box_tent": re.compile(r"a tent \([a-z0-9 -]+\) from the box goes face down on camp-\d"),
    "stock": re.compile(r"store slot row \d, column \d gets [a-z-]+"),
    "ruin_item": re.compile(r"ruins-\d gets [a-z-]+ face down"),
    "draw": re.compile(r"player \d draws \S.*|encounter \d is \S.*|\S.* is revealed on top of .*"),
    "die": re.compile(r"the die shows (\d|the winning symbol)"),
    "place_tile": re.compile(r"[a-z]+-\d gets the [a-z]+-[a-z0-9]+ tile"),
}
"""What each chance step's outcomes read now (before: ``deal_tent: tent card_draw``, ``stock:
shovel``, ``ruin_item: axe``, ``draw: deed-17``, ``die: 2``: the step's data name then the
outcome's; ``lookout-1 gets lookout-3``, a slot then a tile)."""


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
def test_every_chance_outcome_reads_as_words_and_the_old_labels_parse(
    players: int, seed: int
) -> None:
    steps = set()
    for state, outcomes in _nodes(players, seed, chance=True):
        step = state._top()["step"]
        steps.add(step)
        labels = [state.action_to_string(a) for a in outcomes]
        assert len(set(labels)) == len(labels), labels  # one label, one outcome
        for action, label in zip(outcomes, labels, strict=True):
            assert not INTERNAL.search(label), label
            assert not label.startswith(f"{step}:"), label  # the data name first
            if step in OLD_OUTCOMES:
                assert OLD_OUTCOMES[step].fullmatch(label), label
            assert state.string_to_action(label) == action
            old = f"{step}: {state._label(action)}"  # what a record may hold
            assert state.string_to_action(old) == action, old
        if step == "place_tile":  # was "lookout-1 gets lookout-3": the slot, then the tile
            for action, label in zip(outcomes, labels, strict=True):
                assert state.string_to_action(label.removesuffix(" tile").replace(
                    " the ", " ")) == action  # fmt: skip
        if step == "die":
            assert [state.string_to_action(f"die: {n}") for n in (1, 2)] == [
                a for a in outcomes if state.action_to_string(a) in ("the die shows 1",
                                                                    "the die shows 2")
            ]  # fmt: skip
            assert state.action_to_string(state.string_to_action("die: winning symbol")) == (
                "the die shows the winning symbol"
            )
    assert set(OLD_OUTCOMES) - {"box_tent"} <= steps


def test_the_board_heading_says_what_the_game_waits_for_in_words() -> None:
    """Found by a new user's pass: ``forest trial show`` and ``play --human`` headed the board
    ``..., waiting for fight_discard`` (the step's data name), and a finished game ``setting up,
    waiting for over``."""
    from solver.games.trial.render_text import STEP_WORDS, render_board_text

    waiting = {kind for kind, cls in STEPS.items() if not getattr(cls, "auto", False)}
    assert set(STEP_WORDS) == waiting  # every step that waits (a decision or chance) is worded
    states = [s for s, _ in _nodes(2, 1)] + [s for s, _ in _nodes(3, 2, chance=True)]
    for state in states:
        heading = render_board_text(state).splitlines()[0]
        assert not INTERNAL.search(heading), heading
        assert heading.split(", ")[-1] != f"waiting for {state._top()['step']}", heading
    state = states[-1].clone()
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    heading = render_board_text(state).splitlines()[0]
    assert heading.endswith(", game over") and "setting up" not in heading, heading


def test_enhancement_discards_and_the_universal_campsite_read_as_words() -> None:
    # Defect: "discard Ambush (card)" (the enhancement kind's data name in brackets) and
    # "leave your tent (acorn) at universal" (the data's name of the universal campsite).
    from solver.games.trial.belongings import tent_of

    seen = set()
    for state, legal in _decisions(2, 1) + _decisions(3, 2) + _decisions(4, 3):
        frame = state._top()
        for action in legal:
            label = state.action_to_string(action)
            if frame["step"] == "enhance" and action >= state.layout.CARD:
                name = state.game.pack.card(state.layout.cards[action - state.layout.CARD])
                kind = {"food": "food", "card": "card draw", "trade": "trading"}[frame["kind"]]
                assert label == f"discard {name['name']} for its {kind} symbols", label
                old = f"discard {name['name']} ({frame['kind']})"
            elif frame["step"] == "pick_tent" and frame["spot"] == "universal":
                assert label.endswith(" at the universal campsite"), label
                bonus = tent_of(state, action).replace("_", " ")  # the words then
                old = f"leave your tent ({bonus}) at universal"
            else:
                continue
            seen.add(frame["step"])
            assert state.string_to_action(old) == action, old
    assert seen == {"enhance", "pick_tent"}


def test_the_table_panels_and_the_text_view_name_no_data() -> None:
    # Defect: the web table's card panels read "fight (strength 5, dice 1, lose_card discard)"
    # and "swindle (discard_up_to 2, ...)"; a player's own tents read "tents: 2 (card_draw,
    # acorn)" in forest trial show and play --human.
    import json

    from solver.games.trial.render_text import render_player_text
    from solver.registry import game_spec

    spec = game_spec("trial")
    assert spec.table_view is not None
    game = solver.load_game("trial", players=3, engine="reference")
    state = game.new_initial_state()
    rng = random.Random(0)
    for n in range(2000):
        if state.is_terminal():
            break
        if n % 11 == 0:
            for seat in range(3):
                shown = json.dumps(spec.table_view(game, state, seat))
                shown += render_player_text(state, seat)
                assert not INTERNAL.search(shown), INTERNAL.search(shown)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
    state.data["players"][0]["tents"] = ["card_draw", "acorn"]
    assert "tents: 2 (acorn, one-time card draw)" in render_player_text(state, 0)


FOOD_NAMES = ("raspberry", "acorn", "mushroom", "tea")


def test_tents_read_as_their_bonus_in_words_and_old_labels_still_parse() -> None:
    """Found by a new user's pass: ``play --human`` offered 'leave your tent (none) at the
    universal campsite' and told 'player 0 is dealt a tent (none)' (the data's name of the empty
    tent), beside 'a tent (cards)' and 'a tent (card draw)' (two different bonuses, 2 deed cards
    and a one-time card-draw symbol). Each now reads as its bonus in words; the old labels, which
    records may hold, still parse to the same action."""
    from solver.games.trial.belongings import tent_of

    said: dict[str, str] = {}  # bonus -> its words in the labels
    nodes = [n for players, seed in ((2, 1), (3, 2), (4, 3)) for n in
             _nodes(players, seed) + _nodes(players, seed, chance=True)]  # fmt: skip
    for state, actions in nodes:
        step = state._top()["step"]
        if step not in ("deal_tent", "box_tent", "pick_tent"):
            continue
        for action in actions:
            bonus = tent_of(state, action)
            label = state.action_to_string(action)
            words = re.search(r"tent \(([^)]*)\)", label)
            assert words, label
            assert said.setdefault(bonus, words[1]) == words[1], (label, said[bonus])
            old = label.replace(words[0], f"tent ({bonus.replace('_', ' ')})")
            assert state.string_to_action(old) == action, old
    # every bonus seen, each in its own words; a food by its name, no other by its data name
    assert len(said) == 12 and len(set(said.values())) == 12, said
    assert all(said[food] == food for food in FOOD_NAMES), said
    assert not {b for b, w in said.items() if w == b.replace("_", " ") and b not in FOOD_NAMES}
    assert (said["none"], said["food"]) == ("empty", "any food")  # the rules page's tents


def test_whose_turn_reads_alike_everywhere_and_never_none() -> None:
    """Found by a new user's pass: the picture's subtitle read '3 players · player None's turn'
    at a chance node between two turns (the web table's day panel said 'between turns', the
    text view 'setting up' on day 2). The three say one thing: a player's turn, 'between
    turns' once someone stands on the board, 'setting up' before."""
    from solver.games.trial.render_svg import heading_lines
    from solver.games.trial.render_text import render_board_text
    from solver.registry import game_spec

    spec = game_spec("trial")
    assert spec.table_view is not None
    seen = set()
    for state, _ in _nodes(3, 2, chance=True)[::7]:
        data = state.data
        started = data["day"] > 1 or data["players"][0]["space"] is not None
        if data["turn_player"] is not None:
            said = f"player {data['turn_player']}'s turn"
        else:
            said = "between turns" if started else "setting up"
        seen.add(said.split("'")[0] if "'" not in said else "a player's turn")
        sub = heading_lines(state.game, state)[1]
        assert "None" not in sub and f" · {said} · " in sub, sub
        day = next(p for p in spec.table_view(state.game, state, 0)["panels"]
                   if p["title"] == "Day")["items"][0]["text"]  # fmt: skip
        assert day.endswith(f", {said}"), day
        head = render_board_text(state).splitlines()[0]
        assert f", {said}, " in head, head
    assert seen == {"setting up", "between turns", "a player's turn"}, seen


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_every_action_id_has_a_label_at_every_node(engine, request):
    """``action_to_string`` labels any id in range, offered at the node or not, as the other
    games do: before, an id of another family than the step's (a die face at a draw, a card at
    a store visit) raised a bare ``IndexError`` or ``KeyError`` out of the step's words."""
    if engine == "kernel":
        request.getfixturevalue("require_kernels")
    game = solver.load_game("trial", players=2, engine=engine)
    state, rng = game.new_initial_state(), random.Random(5)
    while not state.is_terminal():
        labels = [state.action_to_string(a) for a in range(game.num_distinct_actions())]
        assert all(isinstance(label, str) and label for label in labels)
        state.apply_action(random_action(state, rng))
