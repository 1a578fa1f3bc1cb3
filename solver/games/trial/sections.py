"""Every module that registers step kinds, imported once (importing registers the steps).

The rule sections (:mod:`.setup`, :mod:`.turns`, :mod:`.cards`, :mod:`.fights`,
:mod:`.locations`, :mod:`.store`, :mod:`.expeditions`, :mod:`.camping`) and the bookkeeping
below them that registers its own small steps (:mod:`.belongings`, :mod:`.decks`,
:mod:`.payments`, :mod:`.choices`). After this import, ``core.STEPS`` holds every step kind.
"""

from __future__ import annotations

from solver.games.trial import (
    belongings,
    camping,
    cards,
    choices,
    decks,
    expeditions,
    fights,
    locations,
    payments,
    setup,
    store,
    turns,
)

MODULES = (belongings, decks, payments, choices, setup, turns, cards, fights, locations, store,
           expeditions, camping)  # fmt: skip
"""The modules registering steps, bottom layer first."""
