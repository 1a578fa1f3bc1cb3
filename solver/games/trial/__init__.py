"""The Trial of the Forest (RULES.md §3, ``docs/rules/trial.md``): 2–4 adventurers, 4 days,
hidden hands and decks.

The content (board, components, cards) is a pack of JSON files (:mod:`.content`, checked by
:mod:`.schema`); the reference rules are :mod:`.rules`. The game is registered with the shared
machinery only once its rules are complete (see ``docs/rules/trial.md``).
"""
