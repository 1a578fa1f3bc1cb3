"""The analysis report: report.md, the PNG plots and the hardest/easiest sheets."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

pd = pytest.importorskip("pandas")
pytest.importorskip("pyarrow")
pytest.importorskip("matplotlib")

from solver.analysis.batch import Job, read_results, run_batch  # noqa: E402
from solver.analysis.report import plots, write_report  # noqa: E402
from solver.analysis.stand_ins import fake_analyse  # noqa: E402
from solver.games.dog.analysis import report as dog_report  # noqa: E402
from solver.games.dog.analysis.report import winnable  # noqa: E402

PLOTS = plots("dog") + dog_report.PLOTS

PNG = b"\x89PNG\r\n\x1a\n"


def can_convert() -> bool:
    if shutil.which("rsvg-convert"):
        return True
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        return False
    return True


def is_png(path: Path) -> bool:
    return path.stat().st_size > len(PNG) and path.read_bytes()[: len(PNG)] == PNG


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("results") / "results.parquet"
    return run_batch(Job.generated(40, size=(7, 7), seed=10), fake_analyse, out=out, progress=False)


def images(markdown: str) -> list[str]:
    return re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown)


def test_the_report_has_every_plot_and_sheet(results, tmp_path):
    report = write_report(results, tmp_path / "report")
    directory = report.parent
    text = report.read_text(encoding="utf-8")
    assert report.name == "report.md"
    for name in PLOTS:
        assert is_png(directory / name), name
        assert f"]({name})" in text
    assert text.startswith("# Analysis report: dog\n")
    assert "| forests | 40 |" in text and "| sizes | 7x7 |" in text
    assert "| seeds | 10 to 49 |" in text
    assert "## The 5 hardest winnable forests" in text
    # the forests whose clairvoyant estimate is set by their class, counted from the results
    # (the sentence said "(1, 0 and 0)", the set values, which read as counts)
    classes = read_results(results)["class"].value_counts()
    counts = ", ".join(str(classes.get(name, 0)) for name in ("guaranteed", "hopeless"))
    said = f"unreachable forests ({counts} and {classes.get('unreachable', 0)} here)"
    assert said in text, said
    assert "## The 5 easiest winnable forests" in text
    linked = images(text)
    sheets = [link for link in linked if link.startswith("sheets/")]
    assert len(sheets) == 10
    for link in linked:
        assert (directory / link).stat().st_size > 0, link
    if can_convert():
        assert all(link.endswith(".png") and is_png(directory / link) for link in sheets)
    # The route is pencilled in on the sheets.
    svg = (directory / "sheets" / "hardest-1.svg").read_text(encoding="utf-8")
    assert 'class="trail"' in svg


def test_hardest_and_easiest_are_ranked_by_win_probability(results, tmp_path):
    frame = read_results(results)
    text = write_report(frame, tmp_path).read_text(encoding="utf-8")
    hardest_part = text.split("## The 5 hardest")[1].split("## The 5 easiest")[0]
    easiest_part = text.split("## The 5 easiest")[1]
    probability = frame.set_index("source")["win_probability"]

    def ranked(part: str) -> list[float]:
        sources = re.findall(r"^\| \d \| (\S+) \|", part, flags=re.MULTILINE)
        assert len(sources) == 5
        return [probability[source] for source in sources]

    candidates = winnable(frame)["win_probability"]
    hardest, easiest = ranked(hardest_part), ranked(easiest_part)
    assert hardest == sorted(hardest) and hardest[0] == candidates.min()
    assert easiest == sorted(easiest, reverse=True) and easiest[0] == candidates.max()
    assert min(hardest) > 0  # winnable forests only


def test_the_report_copes_with_missing_columns(tmp_path):
    frame = pd.DataFrame({"source": ["seed:1", "seed:2"], "class": ["never", "error"]})
    report = write_report(frame, tmp_path)
    for name in PLOTS:
        assert is_png(tmp_path / name), name
    text = report.read_text(encoding="utf-8")
    assert "No winnable forest." in text
    assert "No win probability values." in text


def test_failed_forests_are_listed(tmp_path):
    frame = pd.DataFrame(
        {"source": ["a.forest", "b.forest"], "class": ["error", "never"],
         "error": ["FormatError: line 2, column 3: expected a | b", None],
         "win_probability": [None, 0.0]}
    )  # fmt: skip
    text = write_report(frame, tmp_path).read_text(encoding="utf-8")
    assert "## Failed forests" in text
    assert "| a.forest | FormatError: line 2, column 3: expected a \\| b |" in text
    assert "| error | 1 | 50.0% | the analysis failed" in text


def test_unloadable_forests_and_bad_routes_are_noted(tmp_path):
    frame = pd.DataFrame(
        {"source": ["seed:3", str(tmp_path / "gone.forest"), "seed:4", "seed:5"],
         "width": [5, None, 5, 5], "height": [5, None, 5, 5],
         "class": ["uncertain"] * 4, "par": [6, 5, 4, None],
         "win_probability": [0.2, 0.3, 0.4, 0.5],
         "route": [json.dumps([[4, 2], [3, 2]]), "", json.dumps([[9, 9]]), "not json"]}
    )  # fmt: skip
    text = write_report(frame, tmp_path).read_text(encoding="utf-8")
    hardest = text.split("## The 5 hardest")[1].split("## The 5 easiest")[0]
    assert "cannot load the forest (OptionError" in hardest
    assert "route not drawn (trail cell (9, 9) lies outside the 5x5 grid)" in hardest
    assert "| 4 | seed:5 | 5x5 | uncertain |  | 0.5000 | estimate | route not drawn" in hardest
    assert "hardest-2" not in hardest  # nothing drawn for the forest that is gone
    assert 'class="trail"' in (tmp_path / "sheets" / "hardest-1.svg").read_text(encoding="utf-8")


def test_sheets_are_linked_as_svg_without_a_converter(results, tmp_path, monkeypatch):
    monkeypatch.setattr(dog_report, "svg_to_png", lambda svg, png: False)
    text = write_report(results, tmp_path).read_text(encoding="utf-8")
    sheets = [link for link in images(text) if link.startswith("sheets/")]
    assert sheets and all(link.endswith(".svg") for link in sheets)
    for name in PLOTS:  # the plots do not need the converter
        assert is_png(tmp_path / name)


def test_a_custom_loader_draws_the_sheets(tmp_path):
    from solver.games.dog.generator import roll_forest

    seen: list[str] = []

    def loader(row):
        seen.append(row["source"])
        return roll_forest(4, 4, seed=1)

    frame = pd.DataFrame({"source": ["x", "y"], "win_probability": [0.5, 0.7]})
    write_report(frame, tmp_path, instance_loader=loader)
    assert sorted(set(seen)) == ["x", "y"]


def test_the_par_plot_has_integer_ticks_counts_and_says_exact_or_estimate():
    pytest.importorskip("matplotlib")
    from solver.games.dog.analysis.report import par_figure

    frame = pd.DataFrame(
        {"par": [3, 3, 3, 4, 5], "win_probability": [1.0, 1.0, 1.0, 0.5, 0.25],
         "exact": [True, True, True, False, True], "ci_low": [1.0, 1.0, 1.0, 0.4, 0.25],
         "ci_high": [1.0, 1.0, 1.0, 0.6, 0.25]}
    )  # fmt: skip
    fig = par_figure(frame)
    ax = fig.axes[0]
    fig.canvas.draw() if hasattr(fig.canvas, "draw") else None
    ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
    assert ticks and all(float(t).is_integer() for t in ticks)
    assert "3" in [t.get_text() for t in ax.texts]  # three forests share (3, 1.0)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("exact" in label for label in labels)
    assert any("estimate" in label for label in labels)
    assert "exact" in ax.get_ylabel() and "estimate" in ax.get_ylabel()


def test_a_results_file_s_infinite_value_or_overlong_seed_is_reported_not_a_traceback(tmp_path):
    # a results file is not trusted: 'inf' in the value column had no histogram bin (numpy's
    # "supplied range is not finite"), and a seed of 5,000 digits no int() (Python's digit
    # limit): both were a traceback out of forest analyse --report
    frame = pd.DataFrame(
        {"source": ["seed:3", "seed:" + "1" * 5000, "seed:\u00b2", "seed:7"],
         "width": [5, 5, 5, 5], "height": [5, 5, 5, 5], "class": ["uncertain"] * 4,
         "win_probability": [0.5, float("inf"), float("-inf"), 0.25]}
    )  # fmt: skip
    text = write_report(frame, tmp_path).read_text(encoding="utf-8")
    assert "| seeds | 3 to 7 (2 seeds, with gaps) |" in text
    assert "| forest files | 2 |" in text
    assert is_png(tmp_path / "win_probability.png")
