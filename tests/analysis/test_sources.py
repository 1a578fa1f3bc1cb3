"""The sources of a batch (:mod:`solver.analysis.sources`): each game's rolled sizes and turns."""

from __future__ import annotations

import pytest

from solver.analysis.sources import Job
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
