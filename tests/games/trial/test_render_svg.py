"""The Trial's SVG table: well-formed, one space (``data-space``) per board space, a pawn per
placed adventurer where it stands, a flag per tent on a campsite, a title, a scoreboard with
each player's fame, a legend, the hinted route drawn, nothing hidden drawn."""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET

from solver.cli import main
from solver.games.trial.render_svg import board_frame, render_svg
from solver.games.trial.rules import TrialGame, TrialState
from solver.rng import SplitMix64
from solver.testing import random_action

NS = "{http://www.w3.org/2000/svg}"


def played(players: int, seed: int, decisions: int) -> TrialState:
    rng = random.Random(seed)
    state = TrialGame(players=players).new_initial_state()
    done = 0
    while not state.is_terminal() and done < decisions:
        if not state.is_chance_node():
            done += 1
        state.apply_action(random_action(state, rng))
    return state


def test_pawns_stand_on_their_spaces_and_tents_show_their_owners() -> None:
    state = played(4, seed=3, decisions=300)
    game = state.game
    root = ET.fromstring(render_svg(game, state, []))
    spaces = [g.get("data-space") for g in root.iter(f"{NS}g") if g.get("class") == "space"]
    assert spaces == list(game.board.spaces)
    pawns = [c for c in root.iter(f"{NS}circle") if c.get("class") == "pawn"]
    placed = [me["space"] for me in state.data["players"] if me["space"] is not None]
    assert len(pawns) == len(placed) > 0
    frame = board_frame(game)
    for pos in placed:  # a pawn on its space: within a few millimetres of its centre
        sx, sy = frame.at(game.board.xy[pos])
        assert any(
            abs(float(p.get("cx")) - sx) < 6 and abs(float(p.get("cy")) - sy) < 6 for p in pawns
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
            world = state.resample_hidden(p, SplitMix64(seed * 10 + p))
            assert render_svg(world.game, world, []) == picture


def test_forest_trial_render_writes_the_board(tmp_path) -> None:
    out = tmp_path / "board.svg"
    assert main(["trial", "render", "-o", str(out)]) == 0
    root = ET.fromstring(out.read_text(encoding="utf-8"))
    assert not [c for c in root.iter(f"{NS}circle") if c.get("class") == "pawn"]
    assert len([g for g in root.iter(f"{NS}g") if g.get("class") == "space"]) > 40


def _texts(root: ET.Element, cls: str) -> list[str]:
    return [t.text or "" for t in root.iter(f"{NS}text") if t.get("class") == cls]


def test_a_title_a_scoreboard_with_each_fame_and_a_legend() -> None:
    from solver.games.trial.scoring import fame

    state = played(3, seed=4, decisions=250)
    root = ET.fromstring(render_svg(state.game, state, []))
    assert root.find(f"{NS}title") is not None
    (title,) = _texts(root, "title")
    assert title.startswith("The Trial of the Forest")
    shown = [int(t) for t in _texts(root, "fame")]
    assert shown == [fame(state, p)["total"] for p in range(3)]
    legend = [g for g in root.iter(f"{NS}g") if g.get("class") == "legend"]
    assert legend and "grove" in "".join(t.text or "" for t in legend[0].iter(f"{NS}text"))


def _move_states(count: int) -> list[TrialState]:
    """Seeded positions where the mover is choosing where to move (a move's frame on top)."""
    found = []
    for seed in range(200):
        state = played(2 + seed % 3, seed=seed, decisions=seed * 3 + 20)
        rng = random.Random(seed)
        for _ in range(400):  # on to the next move's destination
            if state.is_terminal() or len(found) >= count:
                break
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            labels = [state.action_to_string(a) for a in state.legal_actions()]
            if any(label.startswith("move to ") for label in labels):
                found.append(state)
                break
            wanted = [a for a, label in zip(state.legal_actions(), labels, strict=True)
                      if label in ("move", "stay")]  # fmt: skip
            state.apply_action(wanted[0] if wanted else rng.choice(state.legal_actions()))
        if len(found) >= count:
            break
    return found


def _chained(picture: ET.Element) -> tuple[list[str], list[bool]]:
    """The drawn route's points in order (the pieces joined) and whether each hop is dashed."""
    points: list[str] = []
    dashed: list[bool] = []
    for shaft in picture.iter(f"{NS}polyline"):
        piece = shaft.get("points", "").split()
        hop = shaft.get("stroke-dasharray", "none") != "none"
        points += piece if not points else piece[1:]
        dashed += [hop] * (len(piece) - 1)
    return points, dashed


def test_the_hinted_route_is_the_move_s_own_way_within_its_budget() -> None:
    """A ``move to X`` is drawn along a way the move may take: from the mover's space to X, each
    step a line of the board, an open tunnel to another or an exit to its expedition's start,
    never through an expedition space, as many steps as the rules' search finds (so within the
    move's budget of movement symbols, the frame's base plus extra); the tunnel hops dashed; the
    steps taken of the budget written by the end."""
    from solver.games.trial.belongings import open_tunnels
    from solver.games.trial.render_line import route, svg_line

    frame_of, drawn, hops = None, 0, 0
    for state in _move_states(24):
        board, d = state.game.board, state.data
        here = d["players"][state.current_player()]["space"]
        move = d["stack"][-1]
        budget = move["base"] + move["extra"]
        tunnels = open_tunnels(state)
        reach = board.reachable(here, budget, tunnels)
        frame_of = board_frame(state.game)
        for action in state.legal_actions():
            label = state.action_to_string(action)
            if not label.startswith("move to "):
                continue
            goal = label.split()[-1]
            way = route(state.game, d, here, goal, budget)
            assert way is not None and way[0] == here and way[-1] == goal
            assert len(way) - 1 == reach[goal] <= budget
            assert not set(way[1:-1]) & set(board.area_of)
            tunnel_hops = []
            for a, b in itertools.pairwise(way):
                line = b in board.neighbours[a]
                tunnel = {a, b} <= tunnels
                assert line or tunnel or board.area_start.get(board.area_of.get(b, "")) == b
                tunnel_hops.append(tunnel and not line)
            drawing = svg_line(state.game, state, [action])
            picture = ET.fromstring(f'<svg xmlns="{NS[1:-1]}">{drawing}</svg>')
            points, dashed = _chained(picture)
            tip = next(picture.iter(f"{NS}polygon")).get("points", "").split()[0]
            assert points[:-1] == [f"{x:g},{y:g}" for x, y in
                                   (frame_of.at(board.xy[s]) for s in way)][:-1]  # fmt: skip
            assert tip == "{:g},{:g}".format(*frame_of.at(board.xy[goal]))
            assert dashed == tunnel_hops
            steps = len(way) - 1
            (words,) = [
                t.text for t in picture.iter(f"{NS}text") if t.get("class") == "route-steps"
            ]
            assert words == f"{steps} step{'s' if steps != 1 else ''} of {budget}"
            drawn += 1
            hops += any(tunnel_hops)
    assert drawn >= 100 and hops >= 1


def test_the_encounter_row_and_the_store_are_drawn_as_the_state_has_them() -> None:
    state = played(2, seed=6, decisions=120)
    root = ET.fromstring(render_svg(state.game, state, []))
    groups = {g.get("class"): [] for g in root.iter(f"{NS}g")}
    for g in root.iter(f"{NS}g"):
        groups[g.get("class")].append(g)
    cards = groups["encounter"]
    assert [g.get("data-encounter") for g in cards] == ["1", "2", "3"]
    for g, card in zip(cards, state.data["encounter_row"], strict=True):
        words = [t.text for t in g.iter(f"{NS}text")]
        assert (state.game.pack.card(card)["name"] in words) if card else "(empty)" in words
    slots = {
        g.get("data-store"): [t.text for t in g.iter(f"{NS}text")] for g in groups["store-slot"]
    }
    for r, line in enumerate(state.data["store"], start=1):
        for c, stack in enumerate(line, start=1):
            shown = slots[f"{r},{c}"][0]
            assert shown == (f"{stack[0]} ×{len(stack)}" if stack else "(empty)")
