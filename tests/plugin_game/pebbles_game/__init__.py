"""Pebbles: a die decides the pile (4, 5 or 6 pebbles); two players take 1 or 2 in turn; whoever
takes the last pebble wins. The first player wins exactly when the pile is not a multiple of 3,
so the first player's winning probability from the start is 2/3.

The whole declaration a game needs: rules (a Game and a State speaking the protocol), an
opener, and one GameSpec, found through the entry point in pyproject.toml. The game ships its own
puzzles (``pebbles_game/puzzles/*.pebbles``: a rolled pile and the player to move), declared as
``puzzles="pebbles_game:puzzles"`` and named ``pebbles/NAME``.
"""

from __future__ import annotations

import json
import os
from typing import Any

from solver.errors import FormatError, IllegalActionError, OptionError
from solver.game import CHANCE, TERMINAL
from solver.spec import GameSpec, Opened

ROLLS = {10: 4, 11: 5, 12: 6}  # chance actions: the pile rolled


class PebblesGame:
    """The game, from the roll (``pile`` None) or from a position file's pile."""

    name = "pebbles"

    def __init__(self, pile: int | None = None, to_move: int = 0) -> None:
        self.pile, self.to_move = pile, to_move

    def new_initial_state(self) -> PebblesState:
        return PebblesState(pile=self.pile, to_move=self.to_move, game=self)

    def num_players(self) -> int:
        return 2

    def num_distinct_actions(self) -> int:
        return 13

    def state_from_json(self, text: str) -> PebblesState:
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise FormatError("a JSON object", line=1, column=1, found=str(exc)) from None
        if not isinstance(data, dict) or set(data) != {"pile", "to_move"}:
            raise FormatError("an object with the fields pile and to_move", line=1, column=1)
        pile, to_move = data["pile"], data["to_move"]
        if pile is not None and (type(pile) is not int or not 0 <= pile <= 6):
            raise FormatError("pile: null or 0 to 6", line=1, column=1, found=repr(pile))
        if to_move not in (0, 1):
            raise FormatError("to_move: 0 or 1", line=1, column=1, found=repr(to_move))
        return PebblesState(pile, to_move, game=self)


class PebblesState:
    def __init__(self, pile: int | None, to_move: int, game: PebblesGame) -> None:
        self.pile, self.to_move, self.game = pile, to_move, game

    def get_game(self) -> PebblesGame:
        return self.game

    def current_player(self) -> int:
        if self.pile is None:
            return CHANCE
        return TERMINAL if self.pile == 0 else self.to_move

    def is_chance_node(self) -> bool:
        return self.pile is None

    def is_terminal(self) -> bool:
        return self.pile == 0

    def legal_actions(self) -> list[int]:
        if self.pile is None:
            return sorted(ROLLS)
        return [a for a in (1, 2) if a <= self.pile]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, 1 / 3) for a in sorted(ROLLS)] if self.pile is None else []

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise IllegalActionError(f"{action!r} is not legal in {self}")
        if self.pile is None:
            self.pile = ROLLS[action]
            return
        self.pile -= action
        if self.pile > 0:
            self.to_move = 1 - self.to_move

    def clone(self) -> PebblesState:
        return PebblesState(self.pile, self.to_move, self.game)

    def returns(self) -> list[float]:
        if self.pile != 0:
            return [0.0, 0.0]
        return [1.0, 0.0] if self.to_move == 0 else [0.0, 1.0]

    def action_to_string(self, action: int) -> str:
        if action in ROLLS:
            return f"roll: {ROLLS[action]} pebbles"
        return f"take {action}"

    def string_to_action(self, label: str) -> int:
        for action in (*ROLLS, 1, 2):
            if self.action_to_string(action) == label:
                return action
        raise IllegalActionError(f"no action is labelled {label!r}")

    def to_json(self) -> str:
        return json.dumps({"pile": self.pile, "to_move": self.to_move}, sort_keys=True)

    def __str__(self) -> str:
        return f"pile {self.pile}, player {self.to_move} to move"


def read_position(path: str) -> tuple[int, int]:
    """A ``.pebbles`` file: ``#`` comment lines, then ``pile: N`` (1 to 6) and ``to_move: P``."""
    from solver.files import read_bytes

    text = read_bytes(path, "pebbles file").decode("utf-8")
    fields: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        key, colon, value = line.partition(":")
        if not colon or key.strip() not in ("pile", "to_move") or not value.strip().isdigit():
            raise FormatError("'pile: N' or 'to_move: P'", line=number, column=1, found=repr(line))
        fields[key.strip()] = int(value)
    if not 1 <= fields.get("pile", 0) <= 6 or fields.get("to_move", 0) not in (0, 1):
        raise FormatError("a pile of 1 to 6 and a player 0 or 1", line=1, column=1)
    return fields["pile"], fields.get("to_move", 0)


def open_pebbles(source: Any, *, engine: str | None = None, players: int | None = None) -> Opened:
    if players not in (None, 2):
        raise OptionError(f"pebbles is played by 2 players, not {players}")
    if source is None:
        game = PebblesGame()
        return Opened(game=game, state=game.new_initial_state(), source="default")
    if isinstance(source, str) and source.startswith("pebbles/") and not os.path.exists(source):
        from solver import puzzles

        pile, to_move = puzzles.load(source)
    else:
        pile, to_move = read_position(os.fspath(source))
    game = PebblesGame(pile, to_move)
    return Opened(game=game, state=game.new_initial_state(), source=str(source))


def render_text(game: Any, state: Any) -> str:
    state = game.new_initial_state() if state is None else state
    return "pile not rolled yet" if state.pile is None else str(state)


SPEC = GameSpec(
    name="pebbles",
    title="pebbles",
    summary="take 1 or 2 pebbles from a rolled pile; the last pebble wins",
    players=(2,),
    engines={"reference": lambda **options: PebblesGame()},
    open=open_pebbles,
    extensions=(".pebbles",),
    load_file=read_position,
    puzzles="pebbles_game:puzzles",
    default_source=True,
    default_engine="reference",
    render_text=render_text,
)
