"""Curation: the safe selection language and saving the chosen forests."""

from __future__ import annotations

import pytest

pd = pytest.importorskip("pandas")

from solver.analysis.curate import check_expression, save_selected, select  # noqa: E402
from solver.errors import OptionError  # noqa: E402
from solver.games.dog.format import format_forest, load_forest  # noqa: E402
from solver.games.dog.generator import roll_forest  # noqa: E402


@pytest.fixture
def table() -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "source": ["seed:1", "seed:2", "seed:3", "seed:4", "seed:5"],
            "width": [5, 5, 5, 5, 5],
            "height": [4, 4, 4, 4, 4],
            "class": ["uncertain", "never", "uncertain", "always", "error"],
            "par": [7, None, 9, 4, None],
            "win_probability": [0.45, 0.0, 0.7, 1.0, None],
            "exact": [False, True, False, True, None],
            "error": [None, None, None, None, "RuntimeError: boom"],
        }
    )
    return frame.astype(
        {"source": "string", "class": "string", "par": "Int64", "exact": "boolean",
         "error": "string"}
    )  # fmt: skip


@pytest.mark.parametrize(
    ("expression", "sources"),
    [
        ("class == 'uncertain' and 0.3 < win_probability < 0.6", ["seed:1"]),
        ("class == 'uncertain'", ["seed:1", "seed:3"]),
        ("0.3 < win_probability", ["seed:1", "seed:3", "seed:4"]),
        ("par is None", ["seed:2", "seed:5"]),
        ("par == None", ["seed:2", "seed:5"]),
        ("par is not None and par >= 7", ["seed:1", "seed:3"]),
        ("class in ['always', 'never']", ["seed:2", "seed:4"]),
        ("class not in ('always', 'never', 'error')", ["seed:1", "seed:3"]),
        ("not exact", ["seed:1", "seed:3"]),
        ("exact == True", ["seed:2", "seed:4"]),
        ("~exact | (par < 5)", ["seed:1", "seed:3", "seed:4"]),
        ("(class == 'never') or (win_probability * 2 >= 2)", ["seed:2", "seed:4"]),
        ("par - 2 * 2 == 3", ["seed:1"]),
        ("win_probability > -1", ["seed:1", "seed:2", "seed:3", "seed:4"]),
        ("error is not None", ["seed:5"]),
        ("True", ["seed:1", "seed:2", "seed:3", "seed:4", "seed:5"]),
        ("par in [4, None]", ["seed:2", "seed:4", "seed:5"]),
    ],
)
def test_selection(table, expression, sources):
    assert list(select(table, expression)["source"]) == sources


def test_missing_values_never_satisfy_a_comparison(table):
    assert "seed:5" not in list(select(table, "win_probability < 2")["source"])
    assert "seed:5" not in list(select(table, "not (win_probability >= 2)")["source"])
    assert "seed:5" not in list(select(table, "class != 'x' and win_probability != 3")["source"])
    assert list(select(table, "par not in [7, 9]")["source"]) == ["seed:4"]
    assert list(select(table, "par is None or par > 8")["source"]) == ["seed:2", "seed:3", "seed:5"]


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("__import__('os').system('true')", "double underscores are not allowed"),
        ("win_probability > @limit", "'@' (local variables) is not allowed"),
        ("len(source) > 3", "function calls are not allowed (found 'len(source)')"),
        ("source.str.len() > 3", "function calls are not allowed"),
        ("class.upper == 'X'", "attributes are not allowed (found 'class.upper')"),
        ("source[0] == 's'", "subscripts are not allowed (found 'source[0]')"),
        ("win_probability ** 2 > 0.1", "the operator '**' is not allowed"),
        ("(x := 1) > 0", "':=' assignments are not allowed"),
        ("{'a': 1} == 1", "dicts are not allowed"),
        ("f'{par}' == '1'", "f-strings are not allowed"),
        ("par in par", "'in' must be followed by a list of constants"),
        ("class in ['a', par]", "a list after 'in' may hold numbers, strings and None only"),
        ("par is 3", "'is' and 'is not' compare with None only"),
        ("[1, 2]", "a list may only follow 'in'"),
        ("lambda: 1", "not a valid expression"),
        ("win_probability >", "not a valid expression"),
        ("`class` == 'x'", "backticks are not supported"),
        ("", "an empty selection"),
        ("par > 1" + " and par > 1" * 300, "longer than 2000 characters"),
    ],
)
def test_bad_expressions_are_refused_before_any_data(expression, message):
    with pytest.raises(OptionError, match="bad selection") as caught:
        check_expression(expression)
    assert message in str(caught.value)


@pytest.mark.parametrize(
    ("expression", "message"),
    [
        ("cost > 3", "unknown column 'cost' (the columns are: source, width"),
        ("klass == 'x'", "unknown column 'klass'"),
        ("win_probability", "the selection must be a condition"),
        ("par + 1", "the selection must be a condition"),
        ("class * 1000000000 == 'x'", "arithmetic needs numbers or numeric columns"),
        ("'a' * 100000000000 == 'b'", "arithmetic needs numbers"),
        ("exact + 1 > 0", "arithmetic needs numbers or numeric columns"),
        ("class > 3", "cannot be evaluated"),
        ("1 / 0 > 1", "cannot be evaluated: division by zero"),
        ("par and exact", "expected a condition (true or false) here (found 'par')"),
    ],
)
def test_bad_expressions_are_refused_on_the_table(table, expression, message):
    with pytest.raises(OptionError, match="bad selection") as caught:
        select(table, expression)
    assert message in str(caught.value)


def test_a_refused_selection_runs_nothing(table, monkeypatch):
    import builtins

    def no_eval(*args, **kwargs):
        raise AssertionError("eval must never be used")

    monkeypatch.setattr(builtins, "eval", no_eval)
    monkeypatch.setattr(builtins, "exec", no_eval)
    assert list(select(table, "par > 8")["source"]) == ["seed:3"]


def test_saving_rolls_generated_forests_again(table, tmp_path):
    chosen = select(table, "class == 'uncertain'")
    written = save_selected(chosen, tmp_path / "out")
    assert [p.name for p in written] == ["rolled-5x4-seed1.forest", "rolled-5x4-seed3.forest"]
    assert load_forest(written[1]) == roll_forest(5, 4, seed=3)


def test_saving_re_serialises_file_sources(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = tmp_path / "a" / "same.forest", tmp_path / "b" / "same.forest"
    text = "# a comment that a copy would keep\n" + format_forest(roll_forest(4, 4, seed=8))
    first.write_text(text, encoding="utf-8")
    second.write_text(format_forest(roll_forest(4, 4, seed=9)), encoding="utf-8")
    frame = pd.DataFrame({"source": [str(first), str(second), "seed:2"], "width": [None, None, 3],
                          "height": [None, None, 3]})  # fmt: skip
    written = save_selected(frame, tmp_path / "out")
    assert [p.name for p in written] == ["same.forest", "same-2.forest", "rolled-3x3-seed2.forest"]
    # the forest, written anew: the comment (bytes that are not the forest) is gone
    assert written[0].read_text(encoding="utf-8") == format_forest(roll_forest(4, 4, seed=8))
    assert load_forest(written[1]) == roll_forest(4, 4, seed=9)


def test_saving_a_missing_file_names_it(tmp_path):
    frame = pd.DataFrame({"source": [str(tmp_path / "gone.forest")]})
    with pytest.raises(OptionError, match=r"gone\.forest"):
        save_selected(frame, tmp_path / "out")


def test_saving_refuses_files_that_are_not_forests(tmp_path):
    """Issue 8, defect 3: a results file naming /etc/passwd must not get it copied."""
    secret = tmp_path / "secret.forest"
    secret.write_text("root:x:0:0:root:/root:/bin/bash\n", encoding="utf-8")
    for source, message in (
        ("/etc/passwd", "ends with .forest"),
        (str(tmp_path), "ends with .forest"),
        (str(secret), "line 1"),
    ):
        with pytest.raises(ValueError, match=message):
            save_selected(pd.DataFrame({"source": [source]}), tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_saving_never_replaces_a_file_unless_asked(tmp_path):
    """Issue 8, defect 4: --save-to overwrote a file of the same name without a word."""
    out = tmp_path / "out"
    out.mkdir()
    mine = out / "rolled-5x4-seed3.forest"
    mine.write_text("my own notes\n", encoding="utf-8")
    table = pd.DataFrame({"source": ["seed:1", "seed:3"], "width": [5, 5], "height": [4, 4]})
    with pytest.raises(OptionError, match=r"rolled-5x4-seed3\.forest' exists already.*--overwrite"):
        save_selected(table, out)
    assert mine.read_text(encoding="utf-8") == "my own notes\n"
    assert sorted(p.name for p in out.iterdir()) == ["rolled-5x4-seed3.forest"]  # nothing written
    written = save_selected(table, out, overwrite=True)
    assert load_forest(written[1]) == roll_forest(5, 4, seed=3)


@pytest.mark.parametrize("expression", ["par // 0 > -100", "par % 0 == 0", "par / 0 > 1",
                                        "win_probability / (par - par) > 0"])  # fmt: skip
def test_division_by_zero_is_refused_like_a_constant_one(table, expression):
    """Issue 8, defect 6: `par // 0` and `par % 0` gave 0 rows quietly; `1 // 0` was refused."""
    with pytest.raises(OptionError, match="division by zero"):
        select(table, expression)


def test_a_generated_row_needs_its_size(tmp_path):
    with pytest.raises(OptionError, match="no width and height"):
        save_selected(pd.DataFrame({"source": ["seed:1"]}), tmp_path)
