"""Curation: choose instances of any game from a results table by a condition and save them as
files of the game (``.forest`` for the dog).

:func:`select` reads a condition in a small, safe subset of Python, the one ``DataFrame.query``
users know, and evaluates it column-wise itself (nothing is passed to ``eval``):

- column names (``class`` and other Python keywords too), numbers, strings, ``True``, ``False``,
  ``None``;
- comparisons, chained ones too (``0.3 < win_probability < 0.6``), ``in`` / ``not in`` a list of
  constants, ``is None`` / ``is not None`` (also ``== None``) for missing values;
- ``and``, ``or``, ``not`` (and ``&``, ``|``, ``~``), parentheses;
- ``+``, ``-``, ``*``, ``/``, ``//``, ``%`` on numbers and numeric columns (a division by zero
  is refused, whether by a constant or by a column's value).

Everything else (calls, attributes, subscripts, ``@`` variables, double underscores, lambdas,
``**``...) is refused with an :class:`~solver.errors.OptionError` naming the bad part. As in SQL,
a comparison with a missing value is unknown, ``not`` unknown is still unknown, and rows whose
condition is unknown are left out; ask for missing values with ``is None``.

:func:`save_selected` writes the chosen instances, re-serialised through the game's hooks: a
rolled instance is rolled again from its seed and size, a file is read (after checks) and written
anew, never copied byte for byte; existing files are not replaced unless asked to.

>>> import pandas as pd
>>> table = pd.DataFrame({"source": ["a", "b", "c"], "class": ["uncertain", "never", "uncertain"],
...                       "win_probability": [0.45, 0.0, 0.9]})
>>> list(select(table, "class == 'uncertain' and 0.3 < win_probability < 0.6")["source"])
['a']
>>> select(table, "__import__('os')")
Traceback (most recent call last):
...
solver.errors.OptionError: bad selection "__import__('os')": double underscores are not allowed
"""

from __future__ import annotations

import ast
import io
import keyword
import operator
import os
import tokenize
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias, cast

from solver.analysis.sources import DEFAULT_GAME, Source, analysis_hooks, load_checked
from solver.errors import OptionError, path_said, shortened
from solver.files import write_whole
from solver.folder_swap import write_folder_whole

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = ["check_expression", "save_selected", "select"]

#: The longest selection accepted (characters).
MAX_LENGTH = 2000

_OPERATOR_WORDS = {"and", "or", "not", "in", "is", "True", "False", "None"}

_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}
_ARITHMETIC: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_SYMBOLS: dict[type, str] = {
    ast.Pow: "**",
    ast.MatMult: "@",
    ast.LShift: "<<",
    ast.RShift: ">>",
    ast.BitXor: "^",
}


_LIST_ONLY_AFTER_IN = "a list may only follow 'in' or 'not in'"
_REFUSED: dict[type, str] = {
    ast.Call: "function calls are not allowed",
    ast.Attribute: "attributes are not allowed",
    ast.Subscript: "subscripts are not allowed",
    ast.List: _LIST_ONLY_AFTER_IN,
    ast.Tuple: _LIST_ONLY_AFTER_IN,
    ast.Set: _LIST_ONLY_AFTER_IN,
    ast.Lambda: "lambdas are not allowed",
    ast.IfExp: "'if ... else' expressions are not allowed",
    ast.NamedExpr: "':=' assignments are not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.Dict: "dicts are not allowed",
    ast.Starred: "'*' unpacking are not allowed",
}
"""Why each refused kind of expression is refused (any other kind: "X expressions are not
allowed")."""


class _Bad(Exception):
    """A refused part of the expression: ``node`` is where, ``why`` says what is wrong."""

    def __init__(self, node: ast.AST | None, why: str):
        super().__init__(why)
        self.node = node
        self.why = why


class _Parsed:
    """A checked selection: its syntax tree and the column names it uses."""

    def __init__(self, expression: str):
        self.expression = expression
        if not isinstance(expression, str):
            raise OptionError(f"a selection must be text, not {type(expression).__name__}")
        if not expression.strip():
            raise self.error("an empty selection")
        if len(expression) > MAX_LENGTH:
            raise self.error(f"longer than {MAX_LENGTH} characters")
        for bad, why in (
            ("__", "double underscores are not allowed"),
            ("@", "'@' (local variables) is not allowed"),
            ("`", "backticks are not supported: column names are plain words"),
            ("\\", "backslashes are not allowed"),
        ):
            if bad in expression:
                raise self.error(why)
        self.text, self.names = self._rename_keywords(expression)
        try:
            self.tree = ast.parse(self.text.strip(), mode="eval")
        except SyntaxError as err:
            raise self.error(f"not a valid expression ({err.msg})") from None
        except (RecursionError, MemoryError):
            raise self.error("too deeply nested") from None
        try:
            self.columns = self._check(self.tree.body)
        except _Bad as bad:
            raise self.error(self._explain(bad)) from None
        except RecursionError:
            raise self.error("too deeply nested") from None

    def error(self, why: str) -> OptionError:
        said = shortened(self.expression, 200)  # an expression of 45,000 characters: its start
        return OptionError(f"bad selection {said!r}: {why}")

    def _rename_keywords(self, expression: str) -> tuple[str, dict[str, str]]:
        """Replace column names that are Python keywords (``class``) by placeholders."""
        try:
            tokens = list(tokenize.generate_tokens(io.StringIO(expression).readline))
        except (tokenize.TokenError, SyntaxError, IndentationError) as err:
            raise self.error(f"not a valid expression ({err})") from None
        line_starts = [0]
        for line in expression.splitlines(keepends=True):
            line_starts.append(line_starts[-1] + len(line))
        names: dict[str, str] = {}
        edits: list[tuple[int, int, str]] = []
        for tok in tokens:
            if tok.type != tokenize.NAME:
                continue
            if keyword.iskeyword(tok.string) and tok.string not in _OPERATOR_WORDS:
                placeholder = f"__column{len(names)}__"
                names[placeholder] = tok.string
                start = line_starts[tok.start[0] - 1] + tok.start[1]
                end = line_starts[tok.end[0] - 1] + tok.end[1]
                edits.append((start, end, placeholder))
        text = expression
        for start, end, placeholder in reversed(edits):
            text = text[:start] + placeholder + text[end:]
        return text, names

    def column(self, node: ast.Name) -> str:
        return self.names.get(node.id, node.id)

    def _explain(self, bad: _Bad) -> str:
        if bad.node is None:
            return bad.why
        segment = ast.get_source_segment(self.text.strip(), bad.node) or ""
        for placeholder, name in self.names.items():
            segment = segment.replace(placeholder, name)
        return f"{bad.why} (found {segment!r})" if segment else bad.why

    # -- the allowed shapes ----------------------------------------------------------------------
    def _check(self, node: ast.AST) -> set[str]:
        """The columns ``node`` uses; :class:`_Bad` at the first part not allowed."""
        if isinstance(node, ast.Name):
            return {self.column(node)}
        if isinstance(node, ast.Constant):
            if not (node.value is None or isinstance(node.value, (bool, int, float, str))):
                raise _Bad(node, f"{type(node.value).__name__} constants are not allowed")
            return set()
        if isinstance(node, ast.BoolOp):
            return set().union(*(self._check(value) for value in node.values))
        if isinstance(node, ast.UnaryOp):
            return self._check(node.operand)
        if isinstance(node, ast.BinOp):
            if type(node.op) not in _ARITHMETIC and not isinstance(
                node.op, (ast.BitAnd, ast.BitOr)
            ):
                symbol = _SYMBOLS.get(type(node.op), type(node.op).__name__)
                raise _Bad(node, f"the operator {symbol!r} is not allowed")
            return self._check(node.left) | self._check(node.right)
        if isinstance(node, ast.Compare):
            return self._check_compare(node)
        why = _REFUSED.get(type(node), f"{type(node).__name__} expressions are not allowed")
        raise _Bad(node, why)

    def _check_compare(self, node: ast.Compare) -> set[str]:
        """A comparison, chained or not: ``in`` takes a list of constants, ``is`` only None."""
        columns = self._check(node.left)
        for op, right in zip(node.ops, node.comparators, strict=True):
            if isinstance(op, (ast.In, ast.NotIn)):
                self._check_list(right)
            elif isinstance(op, (ast.Is, ast.IsNot)):
                if not (isinstance(right, ast.Constant) and right.value is None):
                    raise _Bad(right, "'is' and 'is not' compare with None only")
            else:
                columns |= self._check(right)
        return columns

    def _check_list(self, node: ast.AST) -> None:
        if not isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            raise _Bad(node, "'in' must be followed by a list of constants such as ['a', 'b']")
        for element in node.elts:
            if _constant(element) is _NOT_CONSTANT:
                raise _Bad(element, "a list after 'in' may hold numbers, strings and None only")


_NOT_CONSTANT = object()

Operand: TypeAlias = "pd.Series | bool | int | float | str | None"
"""What a part of a selection evaluates to: a column (or a column-wise result) or a constant."""
Condition: TypeAlias = "pd.Series | bool"
"""A part that holds or not: true/false, or a column of them (nullable: unknown where missing)."""
Number: TypeAlias = "pd.Series | int | float"
"""A part arithmetic takes: a number or a numeric column."""


def _constant(node: ast.AST) -> Any:
    """The value of a constant (a negative number too), or :data:`_NOT_CONSTANT`."""
    if isinstance(node, ast.Constant) and (
        node.value is None or isinstance(node.value, (bool, int, float, str))
    ):
        return node.value
    if (
        isinstance(node, ast.UnaryOp)
        and isinstance(node.op, (ast.USub, ast.UAdd))
        and isinstance(node.operand, ast.Constant)
        and isinstance(node.operand.value, (int, float))
        and not isinstance(node.operand.value, bool)
    ):
        value = node.operand.value
        return -value if isinstance(node.op, ast.USub) else value
    return _NOT_CONSTANT


def check_expression(expression: str) -> set[str]:
    """Check ``expression`` without any data; return the column names it uses.

    Lets a command refuse a bad ``--select`` before a long batch runs.

    >>> sorted(check_expression("class == 'uncertain' and 0.3 < win_probability < 0.6"))
    ['class', 'win_probability']
    >>> check_expression("win_probability ** 2 > 0.1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: bad selection '...': the operator '**' is not allowed (found ...)
    """
    return _Parsed(expression).columns


class _Evaluator:
    """Evaluates a checked tree column-wise over a DataFrame."""

    def __init__(self, parsed: _Parsed, frame: pd.DataFrame):
        import pandas as pd

        self.pd = pd
        self.parsed = parsed
        self.frame = frame

    def mask(self) -> pd.Series:
        pd = self.pd
        value = self.visit(self.parsed.tree.body)
        if isinstance(value, bool):
            return pd.Series(value, index=self.frame.index, dtype=bool)
        if not isinstance(value, pd.Series) or not _is_boolean(value):
            raise _Bad(self.parsed.tree.body, "the selection must be a condition (true or false)")
        return value.astype("boolean").fillna(False).astype(bool)

    def visit(self, node: ast.AST) -> Operand:
        """The value of a checked ``node``: a column (a Series) or a constant."""
        if isinstance(node, ast.Name):
            return self._column(node)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.BoolOp):
            values = [self._condition(v) for v in node.values]
            combined = values[0]
            for value in values[1:]:
                combined = (
                    (combined & value) if isinstance(node.op, ast.And) else (combined | value)
                )
            return combined
        if isinstance(node, ast.UnaryOp):
            return self._unary(node)
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        raise _Bad(node, "not allowed")  # pragma: no cover - refused by the check

    def _column(self, node: ast.Name) -> pd.Series:
        name = self.parsed.column(node)
        if name not in self.frame.columns:
            known = ", ".join(map(str, self.frame.columns))
            raise _Bad(node, f"unknown column {name!r} (the columns are: {known})")
        return self.frame[name]

    def _unary(self, node: ast.UnaryOp) -> Operand:
        """``not``/``~`` of a condition, or ``-``/``+`` of a number."""
        if isinstance(node.op, (ast.Not, ast.Invert)):
            condition = self._condition(node.operand)
            return (not condition) if isinstance(condition, bool) else ~condition
        number = self._as_number(node.operand, self.visit(node.operand))
        return -number if isinstance(node.op, ast.USub) else +number

    def _binary(self, node: ast.BinOp) -> Operand:
        """``&``/``|`` of conditions, or arithmetic on numbers (never a division by zero)."""
        left, right = self.visit(node.left), self.visit(node.right)
        if isinstance(node.op, (ast.BitAnd, ast.BitOr)):
            first = self._as_condition(node.left, left)
            second = self._as_condition(node.right, right)
            return (first & second) if isinstance(node.op, ast.BitAnd) else (first | second)
        self._as_number(node.left, left)
        self._as_number(node.right, right)
        if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)):
            self._nonzero(node, right)
        return self._apply(node, _ARITHMETIC[type(node.op)], left, right)

    def _compare(self, node: ast.Compare) -> Operand:
        """A comparison, chained ones as the ``and`` of their links."""
        result: Condition | None = None
        left = self.visit(node.left)
        for op, right_node in zip(node.ops, node.comparators, strict=True):
            part, right = self._link(node, op, left, right_node)
            result = part if result is None else (result & part)
            left = right
        return result

    def _link(
        self, node: ast.Compare, op: ast.cmpop, left: Operand, right_node: ast.expr
    ) -> tuple[Condition, Operand]:
        """One link ``left OP right`` of a comparison: its truth and its right side (the next
        link's left; None after ``in`` and ``is``)."""
        pd = self.pd
        if isinstance(op, (ast.In, ast.NotIn)):
            values = [_constant(e) for e in right_node.elts]  # type: ignore[attr-defined]
            part = self._isin(left, values)
            if isinstance(op, ast.NotIn):
                part = ~part if isinstance(part, pd.Series) else not part
            return part, None
        if isinstance(op, (ast.Is, ast.IsNot)) or (
            isinstance(op, (ast.Eq, ast.NotEq))
            and isinstance(right_node, ast.Constant)
            and right_node.value is None
        ):
            part = self._isna(left)
            if isinstance(op, (ast.IsNot, ast.NotEq)):
                part = ~part if isinstance(part, pd.Series) else not part
            return part, None
        right = self.visit(right_node)
        part = self._apply(node, _COMPARE[type(op)], left, right)
        if isinstance(part, pd.Series):  # a missing value compares as unknown
            part = part.astype("boolean")
            for side in (left, right):
                if isinstance(side, pd.Series):
                    part = part.mask(side.isna().to_numpy(), pd.NA)
        return cast("Condition", part), right

    def _nonzero(self, node: ast.AST, divisor: Operand) -> None:
        """Refuse a division by zero, by a constant or by a column's value (pandas would give
        inf or NaN and the condition would quietly hold or fail)."""
        pd = self.pd
        if isinstance(divisor, pd.Series):
            zeros = int((divisor == 0).fillna(False).sum())
            if zeros:
                raise _Bad(node, f"cannot be evaluated: division by zero (in {zeros} rows)")
        elif divisor == 0:
            raise _Bad(node, "cannot be evaluated: division by zero")

    def _apply(
        self,
        node: ast.AST,
        fn: Callable[[Operand, Operand], Operand],
        left: Operand,
        right: Operand,
    ) -> Operand:
        try:
            return fn(left, right)
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise _Bad(node, f"cannot be evaluated: {' '.join(str(exc).split())}") from None

    def _isin(self, value: Operand, values: list[bool | int | float | str | None]) -> Condition:
        pd = self.pd
        if isinstance(value, pd.Series):
            present = [v for v in values if v is not None]
            part = value.isin(present).astype("boolean")
            missing = value.isna().to_numpy()
            if None in values:
                return part.mask(missing, True)
            return part.mask(missing, pd.NA)  # unknown, as for any comparison
        return value in values

    def _isna(self, value: Operand) -> Condition:
        pd = self.pd
        if isinstance(value, pd.Series):
            return value.isna()
        return value is None

    def _condition(self, node: ast.AST) -> Condition:
        """The value of ``node``, which must be a condition."""
        return self._as_condition(node, self.visit(node))

    def _as_condition(self, node: ast.AST, value: Operand) -> Condition:
        """``value`` (of ``node``) as a condition: true/false, or a column of them (nullable)."""
        pd = self.pd
        if isinstance(value, bool):
            return value
        if isinstance(value, pd.Series) and _is_boolean(value):
            return value.astype("boolean")
        raise _Bad(node, "expected a condition (true or false) here")

    def _as_number(self, node: ast.AST, value: Operand) -> Number:
        """``value`` (of ``node``) as a number or a numeric column; never true/false."""
        pd = self.pd
        if isinstance(value, bool):
            raise _Bad(node, "arithmetic needs numbers, not true/false")
        if isinstance(value, (int, float)):
            return value
        if (
            isinstance(value, pd.Series)
            and pd.api.types.is_numeric_dtype(value)
            and not _is_boolean(value)
        ):
            return cast("Number", value)
        raise _Bad(node, "arithmetic needs numbers or numeric columns")


def _is_boolean(series: pd.Series) -> bool:
    import pandas as pd

    return pd.api.types.is_bool_dtype(series.dtype)


def select(frame: pd.DataFrame, expression: str) -> pd.DataFrame:
    """The rows of ``frame`` where ``expression`` holds (see the module docstring), in order.

    >>> import pandas as pd
    >>> table = pd.DataFrame({"class": ["never", "always"], "par": [None, 7]})
    >>> len(select(table, "par is None")), len(select(table, "class in ['always', 'sometimes']"))
    (1, 1)
    >>> select(table, "cost > 3")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: bad selection 'cost > 3': unknown column 'cost' (the columns are: ...
    """
    parsed = _Parsed(expression)
    try:
        mask = _Evaluator(parsed, frame).mask()
    except _Bad as bad:
        raise parsed.error(parsed._explain(bad)) from None
    except RecursionError:
        raise parsed.error("too deeply nested") from None
    return frame[mask]


def _file_name(source: Source, extension: str) -> str:
    """The file name a source is saved under: ``rolled-WxH-seedN`` (``-turnsT``) or the file's
    own name, with the game's extension."""
    if source.kind == "generated":
        turns = "" if source.turns is None else f"-turns{source.turns}"
        return f"rolled-{source.width}x{source.height}-seed{source.seed}{turns}{extension}"
    name = Path(source.source).name or "instance"
    return name if name.endswith(extension) else name + extension


def save_selected(
    frame: pd.DataFrame,
    directory: str | os.PathLike[str],
    *,
    game: str = DEFAULT_GAME,
    overwrite: bool = False,
    instance_loader: Callable[[dict[str, Any]], Any] | None = None,
) -> list[Path]:
    """Write the instances of ``frame``'s rows to ``directory`` as files; return their paths.

    Every instance is re-serialised through the game's hooks (``dump``), never copied byte for
    byte: a rolled instance (``seed:N`` with ``width`` and ``height``) is rolled again and saved as
    ``rolled-WxH-seedN`` with the game's extension; a file named by a row is read only if it passes
    :func:`~solver.analysis.sources.load_checked` (the game's extension, a regular file of a sane
    size that parses), then saved under its own name. Two sources with the same file name get
    ``-2``, ``-3``... An existing file is never replaced unless ``overwrite``: the names are all
    checked before anything is written, and again as the files are placed. The files are written
    into a staging folder beside ``directory``, then placed together
    (:func:`~solver.folder_swap.write_folder_whole`, the folder's other files kept): saves into
    one folder at once take turns, each placing all its files or none, never a mix of two runs'
    files of one name nor a half-saved run. ``instance_loader`` (a row as a dict → an instance)
    replaces the rolling and reading.

    >>> import tempfile, pandas as pd
    >>> table = pd.DataFrame({"source": ["seed:4"], "width": [5], "height": [4]})
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     [p.name for p in save_selected(table, tmp)]
    ['rolled-5x4-seed4.forest']
    """
    hooks = analysis_hooks(game)
    directory = Path(directory)
    if os.path.lexists(directory) and not directory.is_dir():  # a file, or a link to nothing
        raise OptionError(f"--save-to {path_said(directory)!r} is not a directory")
    plan: list[tuple[dict[str, Any], str]] = []
    used: set[str] = set()
    for row in _rows(frame):
        source = Source.from_row(row, game)
        plan.append((row, _unique(_file_name(source, hooks.extension), used)))
    if not overwrite:  # at once, before any instance is rolled or read
        _refuse_taken([directory / name for _, name in plan if os.path.lexists(directory / name)])

    def fill(staging: Path) -> None:
        for row, name in plan:
            if instance_loader is not None:
                instance = instance_loader(row)
            else:
                instance = load_checked(Source.from_row(row, game))
            write_whole(staging / name, hooks.dump(instance))

    target = Path(os.path.realpath(directory))  # a link to a folder: that folder receives them
    # one run's files placed whole, runs one at a time (solver.folder_swap)
    taken = write_folder_whole(target, fill, overwrite=overwrite)
    _refuse_taken([directory / path.relative_to(target) for path in taken])
    return [directory / name for _, name in plan]


def _refuse_taken(taken: list[Path]) -> None:
    if taken:
        more = f" and {len(taken) - 1} more" if len(taken) > 1 else ""
        raise OptionError(
            f"{os.fspath(taken[0])!r}{more} exists already; nothing was saved (add "
            "--overwrite to replace, or choose another --save-to)"
        )


def _rows(frame: pd.DataFrame) -> Iterable[dict[str, Any]]:
    for record in frame.to_dict(orient="records"):
        yield {str(k): v for k, v in record.items()}


def _unique(name: str, used: set[str]) -> str:
    stem, suffix = os.path.splitext(name)
    candidate, n = name, 1
    while candidate in used:
        n += 1
        candidate = f"{stem}-{n}{suffix}"
    used.add(candidate)
    return candidate
