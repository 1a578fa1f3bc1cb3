"""What the dog sheet's symbols mean: the one legend table both pictures print.

:data:`LEGEND` holds, per legend key, the player's name of a cell kind and what it does (the
rules in a few words). The SVG sheet draws each entry beside a swatch; the text sheet prints the
entries whose symbols appear, with the ``.forest`` symbols of
:data:`~solver.games.dog.format.SYMBOLS` (see :func:`text_legend_entries`).

>>> text_legend_entries({"T", "x", ">"})
[('T', 'tree: blocks the way'), ('>', 'scent trail: run 2 along the arrow'), \
('x', 'pencil: X every cell you enter; re-entering one -1 curiosity')]
"""

from __future__ import annotations

from collections.abc import Collection

from solver.games.dog.forest import Terrain
from solver.games.dog.format import HUMAN_SYMBOL, SHOUTER_SYMBOL, START_SYMBOL, TERRAIN_SYMBOLS
from solver.render.legend import LegendEntry

__all__ = [
    "DOG_SYMBOL",
    "LEGEND",
    "LEGEND_TERRAIN",
    "MARK_SYMBOL",
    "REMINDER",
    "text_legend_entries",
]

#: The text sheet's pencil overlays: the dog's position and a marked cell.
DOG_SYMBOL, MARK_SYMBOL = "d", "x"

LEGEND: tuple[LegendEntry, ...] = (
    LegendEntry("open", "open trail", ("1 step",)),
    LegendEntry("undergrowth", "undergrowth", ("−1 stamina",)),
    LegendEntry("puddle", "puddle", ("−2 stamina, every time",)),
    LegendEntry("tree", "tree", ("blocks the way",)),
    LegendEntry("squirrel", "squirrel", ("run 3 to the nearest edge,", "−1 stamina, skip a turn")),
    LegendEntry("scent", "scent trail", ("run 2 along the arrow",)),
    LegendEntry("dog", "another dog", ("skip a turn,", "+2 curiosity instead of 1")),
    LegendEntry(
        "stick", "interesting stick", ("−1 step per roll (min 1);", "curiosity never drops")
    ),
    LegendEntry("start", "dog start", ("the trail begins here",)),
    LegendEntry("human", "your human", ("step in to win",)),
    LegendEntry(
        "shouter", "shouter", ("on its arrow roll 1d6: under", "the number, or −3 stamina")
    ),
    LegendEntry("pencil", "pencil", ("X every cell you enter;", "re-entering one −1 curiosity")),
)

#: The terrain each terrain legend key stands for (the scent swatch points east).
LEGEND_TERRAIN: dict[str, Terrain] = {
    "open": Terrain.OPEN,
    "undergrowth": Terrain.UNDERGROWTH,
    "puddle": Terrain.PUDDLE,
    "tree": Terrain.TREE,
    "squirrel": Terrain.SQUIRREL,
    "scent": Terrain.SCENT_E,
    "dog": Terrain.DOG,
    "stick": Terrain.STICK,
}

#: The short rules reminder printed at the foot of the SVG sheet.
REMINDER = (
    "Each turn roll 1d6 for steps: 1–2 → 1, 3–4 → 2, 5–6 → 3. Step to a side neighbour, never",
    "straight back (unless no full move exists), and use the whole roll. Next to a distraction:",
    "pay 1 curiosity to ignore it, or investigate it (+1 curiosity, cross it off; the move ends).",
    "At 0 stamina rest a whole turn to get 3 back. Reach your human before the turn track ends.",
)

_SCENTS = (Terrain.SCENT_N, Terrain.SCENT_E, Terrain.SCENT_S, Terrain.SCENT_W)
_KEY_SYMBOLS: dict[str, tuple[str, ...]] = {
    **{key: (TERRAIN_SYMBOLS[t],) for key, t in LEGEND_TERRAIN.items() if key != "scent"},
    "scent": tuple(TERRAIN_SYMBOLS[t] for t in _SCENTS),
    "start": (START_SYMBOL,),
    "human": (HUMAN_SYMBOL,),
    "shouter": (SHOUTER_SYMBOL,),
    "pencil": (MARK_SYMBOL,),
}


def _ascii(line: str) -> str:
    return line.replace("−", "-")


def text_legend_entries(
    symbols: Collection[str], *, resolved_shown: bool = False
) -> list[tuple[str, str]]:
    """(symbols, meaning) for every legend entry whose symbols occur in ``symbols``.

    Entries keep the order of :data:`LEGEND`; the scent trails present share one entry; the
    dog's position (``d``) comes last. ``resolved_shown`` says that a crossed-off distraction is
    printed as open trail, which the open-trail entry then says. Meanings are plain ASCII.
    """
    out = []
    for entry in LEGEND:
        present = [s for s in _KEY_SYMBOLS[entry.key] if s in symbols]
        if not present:
            continue
        meaning = f"{entry.label}: {' '.join(entry.lines)}"
        if entry.key == "open" and resolved_shown:
            meaning += " (also a crossed-off distraction)"
        out.append((" ".join(present), _ascii(meaning)))
    if DOG_SYMBOL in symbols:
        out.append((DOG_SYMBOL, "the dog: where it stands now"))
    return out
