"""Small helpers shared by the command-line modules (argument types).

>>> parse_size("9x7")
(9, 7)
"""

from __future__ import annotations

import argparse

__all__ = ["parse_size"]


def parse_size(text: str) -> tuple[int, int]:
    """``"9x9"`` → ``(width, height)``; an :class:`argparse.ArgumentTypeError` otherwise.

    The range is checked by the command that uses the size (it depends on the game).

    >>> parse_size("12X4")
    (12, 4)
    >>> parse_size("9")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a size like 9x9, found '9'
    """
    parts = text.strip().lower().split("x")
    try:
        width, height = (int(part) for part in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size like 9x9, found {text!r}") from None
    return width, height
