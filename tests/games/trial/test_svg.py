"""The Trial's SVG board: well-formed, one disc per space, a pawn per placed adventurer where it
stands, a flag per tent on a campsite, nothing hidden drawn."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from solver.cli import main
from solver.game import CHANCE
from solver.games.trial.rules import TrialGame, TrialState
from solver.games.trial.svg import MARGIN, SCALE, render_svg

NS = "{http://www.w3.org/2000/svg}"


def played(players: int, seed: int, decisions: int) -> TrialState:
    rng = random.Random(seed)
    state = TrialGame(players=players).new_initial_state()
    done = 0
    while not state.is_terminal() and done < decisions:
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
    return state


def test_pawns_stand_on_their_spaces_and_tents_show_their_owners() -> None:
    state = played(4, seed=3, decisions=300)
    game = state.game
    root = ET.fromstring(render_svg(game, state, []))
    discs = [c for c in root.iter(f"{NS}circle") if c.get("class") == "space"]
    assert len(discs) == len(game.board.spaces)
    pawns = [c for c in root.iter(f"{NS}circle") if c.get("class") == "pawn"]
    placed = [me["space"] for me in state.data["players"] if me["space"] is not None]
    assert len(pawns) == len(placed) > 0
    x0 = min(x for x, _ in game.board.xy.values())
    y0 = min(y for _, y in game.board.xy.values())
    for pos in placed:  # a pawn within a few millimetres of its space's centre
        sx = MARGIN + (game.board.xy[pos][0] - x0) * SCALE
        sy = MARGIN + (game.board.xy[pos][1] - y0) * SCALE
        assert any(
            abs(float(p.get("cx")) - sx) < 5 and abs(float(p.get("cy")) - sy) < 1 for p in pawns
        )
    flags = [p for p in root.iter(f"{NS}polygon") if p.get("class") == "tent"]
    owners = [
        str(c["owner"]).lower()
        for s, c in state.data["camp_tents"].items()
        if c and s in game.board.xy
    ]
    assert sorted(f.get("data-owner") for f in flags) == sorted(owners) and owners


def test_the_picture_is_public() -> None:
    """Redealing what any one player cannot see leaves the picture unchanged."""
    for seed in (1, 2):
        state = played(3, seed=seed, decisions=200)
        picture = render_svg(state.game, state, [])
        for p in range(3):
            world = state.resample_hidden(p, random.Random(seed * 10 + p))
            assert render_svg(world.game, world, []) == picture


def test_forest_trial_render_writes_the_board(tmp_path) -> None:
    out = tmp_path / "board.svg"
    assert main(["trial", "render", "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert not [c for c in root.iter(f"{NS}circle") if c.get("class") == "pawn"]
    assert len([c for c in root.iter(f"{NS}circle") if c.get("class") == "space"]) > 40
