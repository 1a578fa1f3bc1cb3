"""Text pictures of the Trial: the board with its pieces and tokens, and one player's view.

The board is drawn on the pack's grid coordinates: every forest space is a 9-character box
``kind:pieces``, where the kind is ``st`` (start), ``..`` (path), ``cp`` (campsite), ``ex``
(exit), or the location's letter (``G`` grove, ``R`` ruins, ``L`` lookout, ``S`` store; lower case
when ruined, ``+`` when restored); ``~`` marks an open tunnel, ``x`` a collapsed one; the pieces are
the players' numbers. Expedition areas are listed below the grid. The player's view shows only
what that player can see (:func:`solver.games.trial.views.observation`).

>>> from solver.games.trial.rules import TrialGame
>>> text = render_board_text(TrialGame(players=2).new_initial_state())
>>> text.splitlines()[0].startswith("day 1")
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.games.trial.belongings import location_type, open_tunnels, tent_bonus_words
from solver.games.trial.core import turn_words

if TYPE_CHECKING:
    from solver.games.trial.rules import TrialState

LETTER = {"grove": "G", "ruins": "R", "lookout": "L", "store": "S"}
KIND = {"start": "st", "path": "..", "campsite": "cp", "exit": "ex"}


def _space_box(st: TrialState, space: str) -> str:
    board = st.game.board
    kind = board.kind[space]
    if kind == "location":
        tile = st.data["tiles"].get(space)
        if tile is None:
            mark = LETTER[board.slot[space]] + "?"
        else:
            entry = next(t for t in st.game.pack.locations if t["id"] == tile[0])
            letter = LETTER[entry["type"]]
            if entry["type"] == "ruins" and tile[1]:
                mark = LETTER[str(location_type(st, space))] + "+"
            else:
                mark = (letter.lower() if tile[1] else letter) + " "
    else:
        mark = KIND[kind]
    if space in open_tunnels(st):
        mark += "~"
    elif st.data["tunnels"].get(space) == "collapsed":
        mark += "x"
    else:
        mark += " "
    pieces = "".join(str(q) for q, me in enumerate(st.data["players"]) if me["space"] == space)
    return f"[{mark}{pieces:<4}]"


STEP_WORDS = {
    "advance": "the next expedition space",
    "box_tent": "a tent from the box",
    "choose": "an option of a card",
    "collapse": "the tunnel to collapse",
    "deal_tent": "the tents to be dealt",
    "die": "a fight die roll",
    "draw": "a card to be drawn",
    "draw_offer": "whether to draw deed cards",
    "duel_target": "whom to attack",
    "enhance": "a card discarded for its enhancement",
    "exchange": "whether to swap a food for tea",
    "exhausted": "whether to pay 2 food to advance",
    "facedown_optional": "a card into a story column",
    "fight_cards": "cards played face down in the fight",
    "fight_discard": "cards discarded for fight strength",
    "fight_weapon": "a weapon for the fight",
    "finish": "whether to finish the expedition here",
    "flag": "a flag moved deeper",
    "flip_choice": "whether to ruin or restore the location",
    "from_discard": "a card from the deed discard pile",
    "gift_tent": "the campsite that gets a tent",
    "give": "who receives a gift",
    "hand_limit": "discards down to the hand limit",
    "help": "the reward for helping the residents",
    "make_room": "room in the backpack",
    "move": "the move",
    "new_day": "whether to refresh the encounter row",
    "offer": "whether to pay for another player's card",
    "pay": "a payment",
    "pick_card": "a card from hand for the story",
    "pick_column": "the story column of a face-down card",
    "pick_food": "a food from the tray",
    "pick_tent": "a tent to lay face down",
    "place_tile": "the location tiles to be placed",
    "redraw": "whether to redraw the expedition card",
    "reroll": "whether to re-roll",
    "return_slot": "the store slot of an item given up",
    "ruin_item": "the items to be laid on the ruins",
    "ruined_store_sale": "a sale at the ruined store",
    "ruins": "an item bought at the ruins",
    "sale_slot": "the store slot of an item sold",
    "side": "the side of a morality choice",
    "start_space": "the start spaces",
    "stock": "the store to be stocked",
    "store_visit": "the store visit",
    "swindle": "cards discarded for the Swindler",
    "take_encounter": "an encounter card taken",
    "take_item": "an item from the store",
    "trading_bonus": "a trading bonus",
    "turn": "the turn's actions",
    "universal": "the universal campsite's reward",
}
"""What the game waits for, in a player's words, for every step that waits (a decision or chance
step; automatic steps never wait): the heading of :func:`render_board_text` (was the step's data
name: ``waiting for fight_discard``)."""


def render_board_text(st: TrialState) -> str:
    """The board with every piece, tile side and tunnel; the encounter row; the store grid."""
    board = st.game.board
    d = st.data
    forest = [s for s in board.spaces if s not in board.area_of]
    width = int(max(board.xy[s][0] for s in forest)) + 1
    height = int(max(board.xy[s][1] for s in forest)) + 1
    grid = [["         "] * width for _ in range(height)]
    for s in forest:
        x, y = board.xy[s]
        grid[int(y)][int(x)] = _space_box(st, s)
    top = d["stack"][-1]["step"] if d["stack"] else None
    waiting = "game over" if top is None else f"waiting for {STEP_WORDS.get(top, top)}"
    turn = turn_words(d)
    head = [f"day {d['day']}", f"first player {d['first_player']}", waiting]
    lines = [", ".join(head if top is None else [*head[:2], turn, waiting])]
    lines += ["".join(row) for row in grid]
    for area in board.areas:
        inner = [s for s in board.spaces if board.area_of.get(s) == area]
        cells = []
        for s in inner:
            pieces = "".join(str(q) for q, me in enumerate(d["players"]) if me["space"] == s)
            flags = "".join(str(q) for q, me in enumerate(d["players"]) if me["flags"][area] == s)
            fame = f"({board.finish[s]})" if s in board.finish else ""
            cells.append(
                f"{s.split('-', 1)[1]}{fame}"
                + (f"@{pieces}" if pieces else "")
                + (f"!{flags}" if flags else "")
            )
        lines.append(f"{area}: " + " ".join(cells))
    row = [st.game.pack.card(c)["name"] if c else "-" for c in d["encounter_row"]]
    lines.append("encounters: " + " | ".join(row))
    store = [
        " ".join(f"{(stack[0] + 'x' + str(len(stack))) if stack else '-':<14}" for stack in cells)
        for cells in d["store"]
    ]
    lines += ["store:", *("  " + line.rstrip() for line in store)]
    return "\n".join(lines)


def render_player_text(st: TrialState, p: int) -> str:
    """What player ``p`` sees of their own board and of the others (counts for hidden things)."""
    obs = st.observation(p)
    out = []
    for q, view in enumerate(obs["players"]):
        who = f"you, player {q}," if q == p else f"player {q}"
        food = ", ".join(f"{k} {v}" for k, v in view["food"].items())
        hand: Any = view["hand"]
        tents: Any = view["tents"]  # one's own: their bonuses; another's: a count
        if isinstance(tents, list):
            tents = f"{len(tents)} ({', '.join(map(tent_bonus_words, tents))})" if tents else "0"
        if isinstance(hand, list):
            hand = ", ".join(st.game.pack.card(c)["name"] for c in hand) or "-"
        story = [  # one's own face-down card by name, marked: it shows no symbol, no fame
            (st.game.pack.card(c)["name"] + ("" if up else " (face down)"))
            if c
            else f"(face down, {col})"
            for c, up, col in view["story"]
        ]
        where = "not on the board yet" if view["space"] is None else f"at {view['space']}"
        out.append(f"{who} {where}, morality {view['morality']:+d}")
        out.append(f"  food: {food}")
        out.append(
            f"  hand: {hand}; tents: {tents}; paws {view['paws']}"
            f"{' + strong' if view['strong_paw'] else ''}"
        )
        out.append(
            f"  backpack: {', '.join(view['backpack']) or '-'}; gallery: "
            f"{', '.join(view['gallery']) or '-'}"
        )
        out.append(f"  story: {'; '.join(story) or '-'}")
    return "\n".join(out)


LEGEND = """\
[Xmn...] a forest space: X its kind, m its tunnel, n... the players standing there
  kinds: st start, .. path, cp campsite, ex expedition exit; G grove, R ruins, L lookout tower,
  S store (lower case: ruined; a letter and +: restored ruins of that type; ?: not yet placed)
  tunnels: ~ open, x collapsed
areas: each expedition space, (N) a finishing space worth N fame, @ the players there,
  ! the players whose flag stands there
store: one cell per slot, KINDxN a stack of N items"""


def legend(game: Any, state: Any | None = None) -> str:
    """What the text picture's symbols mean."""
    return LEGEND


def render_text(game: Any, state: TrialState | None) -> str:
    """The board and the view of the player to move (player 0 outside decisions)."""
    if state is None:
        state = game.new_initial_state()
    viewer = state.current_player()
    viewer = viewer if 0 <= viewer < state.data["player_count"] else 0
    return render_board_text(state) + "\n" + render_player_text(state, viewer)
