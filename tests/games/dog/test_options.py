r"""``load_game("dog", forest=F)``'s forms (:func:`solver.games.dog.resolve_forest`): an empty
path and a sheet's text given as a path are ``OptionError``\s naming the problem."""

from __future__ import annotations

import pytest

import solver
from solver.errors import OptionError


@pytest.mark.parametrize("forest_option", ["", "grid:\n@ . H\n"])
def test_load_game_with_an_empty_or_sheet_text_forest(forest_option):
    with pytest.raises(OptionError):
        solver.load_game("dog", forest=forest_option)
