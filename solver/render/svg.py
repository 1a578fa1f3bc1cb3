"""SVG building blocks: numbers, escaping, elements, text, points, boxes, groups and the page.

Every helper returns SVG source as a string (or a list of lines) and knows nothing of any game:
coordinates, sizes, colours and classes are arguments. Numbers are printed with at most two
decimals (:func:`fmt`) so that the same drawing always gives the same bytes, which keeps pictures
comparable in tests and in version control.

Attribute names are Python keywords turned into SVG names: a trailing underscore is dropped and
inner underscores become hyphens (``class_`` -> ``class``, ``stroke_width`` -> ``stroke-width``);
names that already hold hyphens (``"data-row"``) pass unchanged. An attribute whose value is
``None`` is left out.

>>> element("circle", {"class_": "dot", "cx": 1.0, "cy": 2.5, "r": 0.333, "fill": None})
'<circle class="dot" cx="1" cy="2.5" r="0.33"/>'
>>> text(10.0, 20.0, "A & B", 3.5, anchor="middle", fill="red")
'<text x="10" y="20" font-size="3.5" text-anchor="middle" fill="red">A &amp; B</text>'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

__all__ = [
    "FONT",
    "INK",
    "box",
    "document",
    "element",
    "escape",
    "fmt",
    "group",
    "points",
    "text",
    "xml_char",
]

#: The default font stack: fonts found on most systems, with the same metrics class.
FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
#: The default ink: a soft black for lines and text.
INK = "#222222"


def fmt(x: float) -> str:
    """A number for SVG: at most two decimals, no trailing zeros, never ``-0``.

    >>> fmt(1.0), fmt(2.345), fmt(-0.001), fmt(12.5)
    ('1', '2.35', '0', '12.5')
    """
    shown = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if shown in ("-0", "") else shown


def xml_char(code: int) -> bool:
    """Whether XML 1.0 allows the character ``code`` (tab and line feed are the caller's).

    >>> xml_char(ord("a")), xml_char(0x01), xml_char(0xFFFE)
    (True, False, False)
    """
    return 0x20 <= code < 0xD800 or 0xE000 <= code < 0xFFFE or code >= 0x10000


def escape(value: str) -> str:
    """``value`` escaped for XML content or a double-quoted attribute.

    Characters XML 1.0 forbids (control characters, lone surrogates) are dropped, so any Python
    string gives a well-formed document.

    >>> escape('<a href="x">&\\x00</a>')
    '&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;'
    """
    value = "".join(ch for ch in value if ch in "\t\n" or xml_char(ord(ch)))
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return value.replace('"', "&quot;")


def _attributes(attrs: Mapping[str, object]) -> list[str]:
    parts = []
    for key, value in attrs.items():
        if value is None:
            continue
        name = key.rstrip("_").replace("_", "-")
        shown = fmt(value) if isinstance(value, float) else escape(str(value))
        parts.append(f'{name}="{shown}"')
    return parts


def element(tag: str, attrs: Mapping[str, object], content: str | None = None) -> str:
    """One element: ``<tag .../>``, or ``<tag ...>content</tag>`` with escaped text content.

    Floats go through :func:`fmt`; other values through ``str`` and :func:`escape`. Attributes
    keep the order of ``attrs``.

    >>> element("rect", {"x": 0.0, "y": 1.25, "width": 3, "data-row": 2})
    '<rect x="0" y="1.25" width="3" data-row="2"/>'
    >>> element("title", {}, "1 < 2")
    '<title>1 &lt; 2</title>'
    """
    head = " ".join([tag, *_attributes(attrs)])
    if content is None:
        return f"<{head}/>"
    return f"<{head}>{escape(content)}</{tag}>"


def text(
    x: float,
    y: float,
    content: str,
    size: float,
    *,
    anchor: str = "start",
    weight: str | None = None,
    fill: str = INK,
    class_: str | None = None,
    style: str | None = None,
) -> str:
    """A ``<text>`` element at (x, y) (the baseline) of font size ``size``.

    ``anchor`` is the SVG ``text-anchor`` (``start``, ``middle``, ``end``; ``start`` is not
    written since it is the default); ``weight`` and ``style`` are the font weight and style.
    """
    return element(
        "text",
        {
            "class_": class_,
            "x": x,
            "y": y,
            "font-size": size,
            "text-anchor": None if anchor == "start" else anchor,
            "font-weight": weight,
            "font-style": style,
            "fill": fill,
        },
        content,
    )


def points(coords: Iterable[tuple[float, float]]) -> str:
    """A ``points`` attribute value (polyline, polygon): ``"x,y x,y ..."``.

    >>> points([(0, 0), (1.5, 2.004)])
    '0,0 1.5,2'
    """
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in coords)


def box(
    x: float,
    y: float,
    width: float,
    height: float,
    *,
    class_: str | None = None,
    fill: str = "#ffffff",
    stroke: str = "#777777",
    stroke_width: float = 0.3,
    rx: float = 0.8,
) -> str:
    """A rectangle with rounded corners (``rx``): a box to write in, a tile, a frame.

    >>> box(1.0, 2.0, 5.0, 5.0, class_="turn-box")
    '<rect class="turn-box" x="1" y="2" width="5" height="5" rx="0.8" fill="#ffffff" \
stroke="#777777" stroke-width="0.3"/>'
    """
    return element(
        "rect",
        {
            "class_": class_,
            "x": x,
            "y": y,
            "width": width,
            "height": height,
            "rx": rx,
            "fill": fill,
            "stroke": stroke,
            "stroke-width": stroke_width,
        },
    )


def group(parts: Sequence[str], **attrs: object) -> list[str]:
    """``parts`` wrapped in a ``<g>`` element with ``attrs`` (one line each, for readable output).

    >>> group(['<circle r="1"/>'], class_="dots", opacity="0.5")
    ['<g class="dots" opacity="0.5">', '<circle r="1"/>', '</g>']
    """
    return [f"<{' '.join(['g', *_attributes(attrs)])}>", *parts, "</g>"]


def document(
    width: float,
    height: float,
    parts: Sequence[str],
    *,
    title: str | None = None,
    font_family: str = FONT,
    background: str | None = "#ffffff",
    unit: str = "mm",
) -> str:
    """A standalone SVG document of ``width`` x ``height`` ``unit`` holding ``parts``.

    The view box is ``0 0 width height``, so drawing coordinates are in ``unit`` (millimetres by
    default: a printable page). ``title`` becomes the ``<title>`` element (what viewers show as
    the name); ``background`` fills the page with a ``rect`` of class ``page`` (``None``: none).
    The result has one element per line and ends with a newline.

    >>> print(document(20.0, 10.0, ['<circle cx="5" cy="5" r="2"/>'], title="dot"), end="")
    <?xml version="1.0" encoding="UTF-8"?>
    <svg xmlns="http://www.w3.org/2000/svg" width="20mm" height="10mm" viewBox="0 0 20 10" \
font-family="DejaVu Sans, Helvetica, Arial, sans-serif">
    <title>dot</title>
    <rect class="page" x="0" y="0" width="20" height="10" fill="#ffffff"/>
    <circle cx="5" cy="5" r="2"/>
    </svg>
    """
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{fmt(width)}{unit}" '
        f'height="{fmt(height)}{unit}" viewBox="0 0 {fmt(width)} {fmt(height)}" '
        f'font-family="{escape(font_family)}">',
    ]
    if title is not None:
        lines.append(element("title", {}, title))
    if background is not None:
        lines.append(
            element(
                "rect",
                {
                    "class_": "page",
                    "x": 0.0,
                    "y": 0.0,
                    "width": float(width),
                    "height": float(height),
                    "fill": background,
                },
            )
        )
    lines.extend(parts)
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
