"""The Trial's encounter row and store in SVG, drawn under the scoreboard: the face-up encounter
cards (name, symbols, fame; ``data-encounter`` is the slot the moves name, 1-based) and the
store's 3 × 4 grid (each slot's stack and price, column symbol + row symbol; ``data-store`` is
``ROW,COLUMN`` as the moves name them, 1-based), so the web table can make them clickable. Both
are public."""

from __future__ import annotations

from typing import Any

from solver.render import box, group, text

__all__ = ["MARKET_HEIGHT", "market"]

CARD_W, CARD_H = 40.0, 24.0
SLOT_W, SLOT_H = 25.0, 7.0
MARKET_HEIGHT = 6.0 + 3 * (SLOT_H + 1.0) + 2.0
"""The height the row and the store take (the store's three rows)."""


def _fit(words: str, width: float, size: float) -> float:
    return min(size, width / (0.6 * max(1, len(words))))


def _card(pack: Any, card_id: str | None, slot: int, x: float, y: float) -> list[str]:
    out = [box(x, y, CARD_W, CARD_H, fill="#fffdf6" if card_id else "#f0f0f0", stroke="#8a7a55",
               stroke_width=0.5, rx=1.5)]  # fmt: skip
    if card_id is None:
        empty = text(x + CARD_W / 2, y + CARD_H / 2, "(empty)", 2.6, anchor="middle",
                     fill="#888888")  # fmt: skip
        return [*out, empty]
    card = pack.card(card_id)
    name = card["name"]
    out.append(text(x + 2.0, y + 5.0, name, _fit(name, CARD_W - 4.0, 3.0), weight="bold"))
    symbols = " ".join(card.get("symbols", []))
    out.append(text(x + 2.0, y + 9.5, symbols, _fit(symbols, CARD_W - 4.0, 2.5), fill="#444444"))
    out.append(text(x + CARD_W - 2.0, y + CARD_H - 2.0, f"fame {card.get('fame', 0)}", 2.6,
                    anchor="end", weight="bold"))  # fmt: skip
    out.append(text(x + 2.0, y + CARD_H - 2.0, f"slot {slot}", 2.2, fill="#777777"))
    return out


def _slot(pack: Any, stack: list[str], r: int, c: int, x: float, y: float) -> list[str]:
    store = pack.store
    price = f"{store['columns'][c]['price']} + {store['rows'][r]['price']}"
    shown = f"{stack[0]} ×{len(stack)}" if stack else "(empty)"
    return [box(x, y, SLOT_W, SLOT_H, fill="#fff7e6" if stack else "#f4f4f4", stroke="#b08a3e",
                stroke_width=0.4, rx=0.8),
            text(x + 1.2, y + 3.1, shown, _fit(shown, SLOT_W - 2.4, 2.5), weight="bold"),
            text(x + 1.2, y + 6.0, price, _fit(price, SLOT_W - 2.4, 2.0),
                 fill="#555555")]  # fmt: skip


def market(game: Any, d: dict[str, Any], x: float, y: float) -> list[str]:
    """The encounter row from (x, y), the store grid beside it."""
    pack = game.pack
    out = [text(x, y + 3.0, "Encounter row", 3.0, weight="bold")]
    for k, card in enumerate(d["encounter_row"]):
        out += group(_card(pack, card, k + 1, x + k * (CARD_W + 2.0), y + 5.0),
                     class_="encounter", **{"data-encounter": k + 1})  # fmt: skip
    sx = x + len(d["encounter_row"]) * (CARD_W + 2.0) + 4.0
    out.append(text(sx, y + 3.0, "Store (price: column + row)", 3.0, weight="bold"))
    for r, line in enumerate(d["store"]):
        for c, stack in enumerate(line):
            at = (sx + c * (SLOT_W + 1.0), y + 5.0 + r * (SLOT_H + 1.0))
            out += group(_slot(pack, stack, r, c, *at), class_="store-slot",
                         **{"data-store": f"{r + 1},{c + 1}"})  # fmt: skip
    return out
