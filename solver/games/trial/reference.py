"""The Trial's state and steps as a reference page, generated from their declarations.

``docs/rules/trial-steps.md`` is this module's output (``python -m solver.games.trial.reference
docs/rules/trial-steps.md`` writes it; a test checks it is current): the state's fields, a
player's fields, every step kind with its kind (decision, chance, automatic), what it does and its
frame's fields with their defaults, the action families and the effect language's verbs.
"""

from __future__ import annotations

import inspect
import json
import sys
from typing import Any

from solver.games.trial.cards import VERBS
from solver.games.trial.core import REQUIRED, STEPS
from solver.games.trial.saved import FORMAT, PLAYER_FIELDS, STATE_FIELDS
from solver.games.trial.sections import MODULES

TITLE = "# The Trial of the Forest: the state and its steps (reference)"


def _doc(obj: Any) -> str:
    text = inspect.getdoc(obj) or ""
    return " ".join(text.split("\n\n")[0].split())


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _default(value: Any) -> str:
    return "required" if value is REQUIRED else f"`{json.dumps(value)}`"


def _kind(cls: Any) -> str:
    return "chance" if cls.chance else "automatic" if cls.auto else "decision"


def page() -> str:
    """The reference page (markdown)."""
    from solver.games.trial.actions import NAMED, Layout
    from solver.games.trial.content import default_pack

    lines = [
        TITLE,
        "",
        "Generated from the declarations in `solver/games/trial/` by `python -m "
        "solver.games.trial.reference docs/rules/trial-steps.md`; the rules themselves are "
        '[trial.md](trial.md). A saved state is `{"game": "trial", "format": '
        f'{FORMAT}, "state": DATA}}` (`solver/games/trial/saved.py`).',
        "",
        "## The state (`st.data`)",
        "",
        "| field | holds |",
        "|---|---|",
    ]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in STATE_FIELDS.items()]
    lines += ["", '## A player (`st.data["players"][p]`)', "", "| field | holds |", "|---|---|"]
    lines += [f"| `{name}` | {_cell(text)} |" for name, text in PLAYER_FIELDS.items()]
    lines += [
        "",
        "## The steps",
        "",
        "The stack's top step is what the game waits for: a **decision** of its `player` (its "
        "legal actions), a **chance** node (its outcomes, with exact probabilities) or an "
        "**automatic** step (it runs at once). A step kind whose decision has no legal action, or "
        "whose chance node has no outcome, is passed over. Every frame holds `step` (its kind) "
        "and the fields below (*required* ones have no default).",
    ]
    seen: set[str] = set()
    for module in MODULES:
        kinds = sorted(k for k, cls in STEPS.items() if cls.__module__ == module.__name__)
        if not kinds:
            continue
        lines += ["", f"### `{module.__name__.rsplit('.', 1)[1]}`: {_doc(module)}", ""]
        for kind in kinds:
            seen.add(kind)
            cls = STEPS[kind]
            lines += [f"**`{kind}`** ({_kind(cls)}). {_cell(_doc(cls))}", ""]
            if cls.fields:
                lines += ["| field | default | meaning |", "|---|---|---|"]
                lines += [
                    f"| `{name}` | {_cell(_default(default))} | {_cell(meaning)} |"
                    for name, (default, meaning) in cls.fields.items()
                ]
                lines.append("")
    missing = sorted(set(STEPS) - seen)
    assert not missing, f"steps registered outside the sections: {missing}"
    layout = Layout(default_pack())
    lines += [
        "## Action ids",
        "",
        "One flat range per pack, in families (`solver/games/trial/actions.py`); what a family "
        "means is said by the step waiting. For the shipped pack:",
        "",
        "| family | first id | size |",
        "|---|---:|---:|",
    ]
    lines += [
        f"| `{name}` | {base} | {layout.sizes[name]} |"
        for name, base in sorted(layout.bases.items(), key=lambda kv: kv[1])
    ]
    lines += ["", "Named actions: " + ", ".join(f"{i} `{n}`" for i, n in enumerate(NAMED)) + "."]
    lines += [
        "",
        "## The effect language's verbs",
        "",
        "Each verb is interpreted by a function of `solver/games/trial/cards.py` (`VERBS`); "
        "their arguments are in [trial.md](trial.md) §1.1.",
        "",
    ]
    lines += [f"- `{verb}`: {_cell(_doc(fn)) or 'see trial.md'}" for verb, fn in VERBS.items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    text = page()
    if args:
        with open(args[0], "w", encoding="utf-8") as handle:
            handle.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
