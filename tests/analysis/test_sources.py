"""The sources of a batch (:mod:`solver.analysis.sources`): each game's rolled sizes and turns."""

from __future__ import annotations

import pytest

from solver.analysis.sources import Job, Source, seed_of
from solver.errors import OptionError


def test_each_game_refuses_sizes_and_turns_it_does_not_have():
    with pytest.raises(OptionError, match=r"--size players must be from 2 to 4, not 5"):
        Job.generated(1, size=(5, 2), game="trial")
    with pytest.raises(OptionError, match=r"--size height must be from 2 to 16, not 17"):
        Job.generated(1, size=(4, 17), game="guardians")
    with pytest.raises(OptionError, match="no turn limit"):
        Job.generated(1, size=(4, 4), turns=3, game="guardians")
    # without --size each game rolls its own default size; the dog's stays 9x9
    assert (Job.generated(1, game="dog").width, Job.generated(1, game="dog").height) == (9, 9)
    assert Job.generated(1, game="trial").describe()["size"] == "2x4"


@pytest.mark.parametrize(
    ("source", "seed"),
    [("seed:42", 42), ("seed:0007", 7), ("seed:18446744073709551615", 2**64 - 1),
     ("seed:\u00b2", None), ("seed:\u0661", None), ("seed:", None), ("seed:-1", None),
     ("forests/a.forest", None)],
)  # fmt: skip
def test_a_rows_seed_is_ascii_digits(source, seed):
    # str.isdigit takes '²' (int() refuses it: a traceback) and the Arabic-Indic '١' (read as
    # 1: a row this library never wrote rolled seed 1)
    assert seed_of(source) == seed


def test_a_rows_seed_longer_than_any_seed_is_refused_by_name():
    # int() refuses more than 4,300 digits: a traceback out of --save-to before
    with pytest.raises(OptionError, match=r"the source 'seed:1{35}\.\.\.' names no seed"):
        Source.from_row({"source": "seed:" + "1" * 5000, "width": 5, "height": 5})
