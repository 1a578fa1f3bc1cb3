"""A game's own factory options reach every generic command: ``--option NAME=VALUE``.

Guardians declares ``level``, ``tiles`` and ``open_backs`` (``GameSpec.options``); the values go
to its opener and from there to ``load_game``'s factory, as ``load_game("guardians", level=3)``
would.
"""

from __future__ import annotations

import pytest

from solver.registry import game_spec
from solver.testing import run_forest as forest


def test_the_opener_takes_the_declared_options():
    spec = game_spec("guardians")
    assert set(spec.options) == {"level", "tiles", "open_backs"}
    opened = spec.open(None, players=1, level=4)
    assert opened.game.level.number == 4


@pytest.mark.parametrize("level", [1, 6])
def test_option_level_reaches_the_game(level):
    run = forest("guardians", "best-move", "--players", "1", "--option", f"level={level}",
                 "--iterations", "20", "--json")  # fmt: skip
    assert run.returncode == 0, run.stderr
    run = forest("guardians", "show", "--players", "1", "--option", f"level={level + 6}")
    assert run.returncode == 2
    assert run.stderr == f"forest: error: a solo level is a whole number 1..6, not {level + 6}\n"


def test_option_text_values_and_errors(tmp_path):
    missing = tmp_path / "no-such-tiles.json"
    run = forest("guardians", "show", "--option", f"tiles={missing}")
    assert run.returncode == 2 and str(missing) in run.stderr, run.stderr
    run = forest("guardians", "show", "--option", "colour=red")
    known = "level, tiles, open_backs"
    assert run.stderr == f"forest: error: guardians has no option 'colour' (its options: {known})\n"
    run = forest("guardians", "show", "--option", "level")
    assert run.stderr == "forest: error: --option takes NAME=VALUE, not 'level'\n"
    run = forest("dog", "show", "dog/tiny-2x2", "--option", "x=1")  # the dog declares none
    assert run.returncode == 2 and "unrecognized arguments: --option" in run.stderr


@pytest.mark.parametrize("command", [("play", "--games", "1", "--iterations", "1"), ("show",)])
def test_option_level_with_more_than_one_player_is_refused(command):
    """Levels are solo only: a level given to a game of 2-4 players is refused in one line
    (status 2), never ignored (found by attack: ``play --players 3 --option level=5`` played an
    ordinary 3-player game)."""
    run = forest("guardians", command[0], "--players", "3", "--option", "level=5", *command[1:])
    assert run.returncode == 2 and run.stdout == "", run.stdout
    assert run.stderr.count("\n") == 1 and "solo" in run.stderr and "3 players" in run.stderr
    from solver.errors import OptionError
    from solver.games.guardians.rules import GuardiansGame

    with pytest.raises(OptionError, match="solo"):
        GuardiansGame(2, level=1)  # even level 1, the solo default, is not ignored
    assert GuardiansGame(2).level is None and GuardiansGame(1).level.number == 1


def test_option_open_backs_plays_the_open_variant(tmp_path):
    """``--option open_backs=true`` is the open variant the API's ``open_backs=True`` is (found
    by the rules audit: only the API reached it): its record says so, and no flip of it is a
    chance reveal, as the default's are; anything but true or false is refused."""
    import json

    states = {}
    for value in ("true", "false"):
        record = tmp_path / f"{value}.json"
        run = forest("guardians", "play", "--players", "1", "--agent", "planner", "--seed", "3",
                     "--option", f"open_backs={value}", "--record", str(record))  # fmt: skip
        assert run.returncode == 0, run.stderr
        states[value] = json.loads(record.read_text(encoding="utf-8"))
    assert states["true"]["options"].get("open_backs") is True
    assert not states["false"]["options"].get("open_backs")
    reveals = {v: sum(label.startswith("reveal") for label in states[v]["labels"]) for v in states}
    assert reveals["true"] == 0 < reveals["false"]
    run = forest("guardians", "show", "--option", "open_backs=1")
    assert run.stderr == (
        "forest: error: --option open_backs takes a boolean, true or false, not the number 1\n"
    )


@pytest.mark.parametrize(
    ("value", "said"),
    [("open_backs=yes", '--option open_backs takes a boolean, true or false, not the text "yes"'),
     ("level=high", '--option level takes one of 1, 2, 3, 4, 5, 6, not the text "high"')],
)  # fmt: skip
def test_a_text_for_an_option_that_takes_none_names_what_it_takes(value, said):
    """Defect: a text that is not JSON (``--option open_backs=yes``) reached the game, and a
    hint request's or the web table's was told "a text value may name a file"; the refusal
    names the option and the values it takes (guardians declares no option types: a boolean
    from its default ``open_backs=False``, the level from its declared choices)."""
    run = forest("guardians", "show", "--players", "1", "--option", value)
    assert run.returncode == 2 and run.stderr == f"forest: error: {said}\n", run.stderr


class _Toy:
    """A game built with no options: its defaults are what :mod:`solver.option_values` reads."""

    name = "toyoptions"

    def __init__(self) -> None:
        self.depth, self.ratio, self.strict = 3, 0.5, False
        self.names: list[str] = []
        self.source = None


def test_what_an_option_takes_is_read_from_the_game_s_default():
    """Shared code, no game named: a spec that declares no option types is read through its
    game's defaults (bool, whole number, number, list); an option whose default is no such
    value (None here: a file, say) may take a text and is not refused."""
    from solver.option_values import expected, text_refusal
    from solver.spec import GameSpec

    spec = GameSpec(
        name="toyoptions", title="toy", summary="options for testing", players=(1,),
        engines={"reference": lambda **_: _Toy()}, open=lambda *a, **k: None,
        options={name: "help" for name in ("depth", "ratio", "strict", "names", "source")},
    )  # fmt: skip
    assert {name: expected(spec, name) for name in spec.options} == {
        "depth": "a whole number", "ratio": "a number", "strict": "a boolean, true or false",
        "names": "a list", "source": None,
    }  # fmt: skip
    assert text_refusal(spec, "depth", "deep", "depth") == (
        'depth takes a whole number, not the text "deep"'
    )
    assert text_refusal(spec, "source", "a.json", "source") is None


@pytest.mark.parametrize(
    ("value", "said"),
    [("open_backs=" + "x" * 5_000, "--option open_backs takes a boolean, true or false, not the "
      f'text "{"x" * 60}... (5000 characters)"'),
     ('open_backs={"a": 1, "a": 2}', "--option open_backs: line 1, column 10: expected each key "
      "once in an object, found 'a' again (at a)"),
     ("open_backs=" + "[" * 5_000, "--option open_backs: nested too deeply to read")],
)  # fmt: skip
def test_an_option_s_value_is_read_as_every_json_is(value, said):
    """Defects (found by attack): ``--option``'s JSON was read by plain ``json.loads``, so
    ``open_backs={"a": 1, "a": 2}`` was taken as ``{"a": 2}`` where every other JSON the
    library reads refuses the repeat; a value nested 5,000 deep was refused as ``None: nested
    too deeply to read``; a refused text of 5,000 characters was quoted whole."""
    run = forest("guardians", "show", "--players", "1", "--option", value)
    assert run.returncode == 2 and run.stderr == f"forest: error: {said}\n", run.stderr


def test_guardians_default_player_count_is_the_same_on_every_surface(capsys):
    """Found: ``load_game("guardians")`` started a solo game while ``forest guardians play``
    (and a hint request without ``options.players``) started 2 players. Now 2 everywhere, and a
    level given without a count asks for solo everywhere (levels are solo only)."""
    from types import SimpleNamespace

    import solver
    from solver.cli import main
    from solver.hint.position import open_position

    def request(options: dict) -> SimpleNamespace:
        return SimpleNamespace(game="guardians", engine=None, options=options, state=None,
                               actions=[])  # fmt: skip

    spec = game_spec("guardians")
    for engine in ("kernel", "reference"):
        assert solver.load_game("guardians", engine=engine).num_players() == 2
        assert solver.load_game("guardians", engine=engine, level=3).num_players() == 1
    assert spec.open(None).game.num_players() == 2
    assert open_position(request({})).game.num_players() == 2
    assert open_position(request({"level": 3})).game.level.number == 3
    assert main(["guardians", "show"]) == 0
    assert capsys.readouterr().out.count("forest: score 0") == 2  # one forest a player
    assert main(["guardians", "show", "--option", "level=4"]) == 0
    assert capsys.readouterr().out.count("forest: score 0") == 1


@pytest.mark.parametrize("engine", ["kernel", "reference"])
@pytest.mark.parametrize("options", [{"players": 1}, {"players": True}, {"colour": "red"}])
def test_the_dog_refuses_an_option_by_name_on_both_engines(engine, options):
    """Found by attack: ``load_game("dog", engine="reference", forest=F, players=1)`` raised a
    TypeError (``DogGame.__init__() got an unexpected keyword argument``) where the kernel
    refused it with an OptionError; the API raises only ``solver.errors`` classes."""
    import solver
    from solver.errors import OptionError

    name = next(iter(options))
    with pytest.raises(OptionError) as refused:
        solver.load_game("dog", engine=engine, forest="dog/tiny-2x2", **options)
    assert str(refused.value) == f"the dog game takes no option {name!r} (only the forest)"


@pytest.mark.parametrize(
    ("value", "said"),
    [("level=\u0669", 'not the number \u0669'),
     ("open_backs=\u0646\u0639\u0645", 'not the text "\u0646\u0639\u0645"'),
     ('level=["\u0663"]', 'not the list ["\u0663"]'),
     ("level=\x7f\u0663", 'not the text "\\u007f\u0663"'),
     ("level=a\u202eb\u2028c", 'not the text "a\\u202eb\\u2028c"')],
)  # fmt: skip
def test_an_option_s_value_is_quoted_as_typed_in_any_script(value, said):
    """Defect: a refused ``--option`` value was quoted through ``json.dumps``' ASCII escapes, so
    the Arabic-Indic digit 3 a user typed read ``"\\u0663"``. It is shown as typed now; a
    character that is not printable (a control, a line separator, a bidi override) is still
    escaped, so the message stays one line and shows what was typed."""
    run = forest("guardians", "show", "--players", "1", "--option", value)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("forest: error: --option ") and run.stderr.endswith(f"{said}\n")


def test_a_quoted_value_reads_back_as_the_value_and_prints_on_one_line():
    """:func:`solver.errors.json_quoted` against JSON itself: what it writes is JSON reading back
    as the value (astral characters and escapes alike), every character of it printable, and a
    printable character of the value kept as itself."""
    import json
    import random

    from solver.errors import json_quoted

    rng = random.Random(115)
    pool = ["a", " ", '"', "\\", "\n", "\x00", "\x7f", "\x85", "\u0663", "\u2028", "\u202e",
            "\u200d", "\U0001d7d1", "\U000e0001", "\ud800"]  # fmt: skip
    for _ in range(400):
        text = "".join(rng.choice(pool) for _ in range(rng.randrange(8)))
        quoted = json_quoted(text)
        assert json.loads(quoted) == text and quoted.isprintable(), (text, quoted)
        for ch in text:
            if ch.isprintable() and ch not in '"\\':
                assert ch in quoted


@pytest.mark.parametrize(
    ("value", "said"),
    [("level=1\ufe0f", 'not the text "1\\ufe0f"'), ("level=\u3164", 'not the text "\\u3164"'),
     ("level=\u0301x", 'not the text "\\u0301x"'), ("level=1\u034f", 'not the text "1\\u034f"'),
     ("level=e\u0301", 'not the text "e\u0301"')],
)  # fmt: skip
def test_an_invisible_character_of_a_value_is_shown_escaped(value, said):
    """Found by attack: a character drawn as nothing was quoted as typed, so ``level=1`` and a
    variation selector was refused as 'not the text "1"' (a value the option takes), a Hangul
    filler read as a blank, and a combining mark first in the value sat on the quote. They are
    escaped now; a mark on a letter stays as typed."""
    run = forest("guardians", "show", "--players", "1", "--option", value)
    assert run.returncode == 2, run.stderr
    assert run.stderr.startswith("forest: error: --option ") and run.stderr.endswith(f"{said}\n")


@pytest.mark.parametrize("typed", ["\u0663", "\uff13", "\u09e9", "03", "+3", " \u0663 "])
def test_an_option_s_whole_number_is_read_in_any_script_s_digits(typed):
    """Defect: ``--iterations \u0663`` (Arabic-Indic 3) ran while ``--option level=\u0663`` was
    refused as 'not the text "\u0663"'. A game option's whole number follows the flags' rule
    (any script's decimal digits, as int() reads them; ``solver.cmdkit.decimal_written``): the
    game shown is level 3's, as ``level=3`` shows it."""
    same = forest("guardians", "show", "--players", "1", "--option", "level=3")
    run = forest("guardians", "show", "--players", "1", "--option", f"level={typed}")
    assert (run.returncode, run.stderr) == (0, ""), run.stderr
    assert run.stdout == same.stdout and same.returncode == 0


def test_an_option_taking_a_text_keeps_digits_as_its_text(tmp_path, monkeypatch):
    """An option that may take a text (guardians' ``tiles``: a file's path) reads digits that are
    no JSON as the path they name: ``tiles=\u0663`` is the file of that name, not the number 3."""
    monkeypatch.chdir(tmp_path)
    run = forest("guardians", "show", "--option", "tiles=\u0663")
    assert run.returncode == 2 and "\u0663" in run.stderr, run.stderr
    assert "not the number" not in run.stderr, run.stderr
