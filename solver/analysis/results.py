"""Results files: the columns, their types, and reading and writing Parquet or CSV.

Every results file starts with the shared columns ``source`` (``seed:N`` or the path as given),
``width``, ``height`` (the size an instance was rolled at, or the size the analysis reports),
``class``; then come the game's own columns, declared with their types in its
:class:`~solver.spec.AnalysisHooks` (the dog's ``par``, ``win_probability``...), then ``seconds``
(the wall time of each analysis) and ``error`` (empty unless the analysis failed), then any further
keys the analysis returned, in order of first appearance.

A declared column always holds its declared type: a value of another type is refused where it
enters (the analysis's row becomes an error row, a journal line is damaged, a file cell is a
:class:`~solver.errors.FormatError` naming the file, the line and the column), never turned into
text silently.

>>> results_format("out/results.parquet"), results_format("x.CSV")
('parquet', 'csv')
"""

from __future__ import annotations

import importlib
import math
import os
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from solver.errors import FormatError, OptionError, path_said
from solver.fields import JSONValue

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

__all__ = [
    "SHARED_COLUMNS",
    "TIMING_COLUMNS",
    "check_output",
    "column_types",
    "read_results",
    "require",
    "results_format",
    "value_fits",
    "without_timing",
    "write_results",
]

SHARED_COLUMNS: dict[str, str] = {
    "source": "string",
    "width": "Int64",
    "height": "Int64",
    "class": "string",
    "seconds": "float64",
    "error": "string",
}
"""The columns every results file has, with their types."""

Cell: TypeAlias = object
"""One cell of a results table as pandas or a CSV reader hands it: a Python scalar, a numpy
scalar, NaN, ``pandas.NA`` or text; the readers below check what it is, so any value may come."""

_HEAD = ("source", "width", "height", "class")
_TAIL = ("seconds", "error")
REQUIRED = ("source", "class")
"""The columns a file must have to be read as a results file."""

TIMING_COLUMNS: tuple[str, ...] = ("seconds",)
"""Columns that measure time and so differ between otherwise identical runs."""

_FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv"}
_KINDS = {
    "Int64": "a whole number",
    "float64": "a number",
    "boolean": "true or false",
    "string": "text",
}


def require(module: str, extra: str, what: str) -> Any:
    """Import an optional package, or say how to install it (an :class:`OptionError`)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise OptionError(
            f"{what} needs the optional package {module!r}: pip install 'forest-solver[{extra}]'"
        ) from None


def column_types(game_columns: Mapping[str, str] | None = None) -> dict[str, str]:
    """The declared columns, in file order, with their types.

    >>> list(column_types({"par": "Int64"}))
    ['source', 'width', 'height', 'class', 'par', 'seconds', 'error']
    """
    types = {name: SHARED_COLUMNS[name] for name in _HEAD}
    for name, dtype in (game_columns or {}).items():
        if name in SHARED_COLUMNS:
            continue
        if dtype not in _KINDS:
            raise OptionError(f"column {name!r} is declared as {dtype!r}; expected one of {_KINDS}")
        types[name] = dtype
    types.update({name: SHARED_COLUMNS[name] for name in _TAIL})
    return types


def value_fits(dtype: str, value: JSONValue) -> bool:
    """Whether a JSON value may stand in a column of type ``dtype`` (None: missing, always).

    >>> value_fits("Int64", 3), value_fits("Int64", "3"), value_fits("float64", 2)
    (True, False, True)
    >>> value_fits("boolean", 1), value_fits("string", None)
    (False, True)
    """
    if value is None:
        return True
    if dtype == "Int64":
        return isinstance(value, int) and not isinstance(value, bool)
    if dtype == "float64":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    if dtype == "boolean":
        return isinstance(value, bool)
    return isinstance(value, str)


def results_format(path: str | os.PathLike[str]) -> str:
    """``"parquet"`` or ``"csv"``, from the file's extension.

    >>> results_format("results.xlsx")
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: cannot tell the format of 'results.xlsx': use .parquet, .pq or .csv
    """
    suffix = Path(path).suffix.lower()
    if suffix not in _FORMATS:
        raise OptionError(
            f"cannot tell the format of {os.fspath(path)!r}: use .parquet, .pq or .csv"
        )
    return _FORMATS[suffix]


def check_writer(fmt: str) -> None:
    """Refuse early when the packages for writing ``fmt`` are missing."""
    require("pandas", "analysis", "writing results")
    if fmt == "parquet":
        require("pyarrow", "analysis", "a Parquet results file")


def check_output(path: str | os.PathLike[str]) -> Path:
    """``path`` as an output file, refused before any work when it cannot be one.

    The format must be known, ``path`` must not be a directory nor anything else but a regular
    file (a FIFO, a device), and its folder must be a folder (created when missing).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     check_output(tmp + "/")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    solver.errors.OptionError: cannot tell the format of '...': use .parquet, .pq or .csv
    """
    path = Path(path)
    check_writer(results_format(path))
    if path.is_dir():
        raise OptionError(f"the output {path_said(path)!r} is a directory; name a file in it")
    if path.exists() and not path.is_file():  # a FIFO, a socket, a device: never written whole
        raise OptionError(f"{path_said(path)}: not a regular file to write the results into")
    parent = path.parent
    if parent.exists() and not parent.is_dir():
        raise OptionError(f"cannot write {os.fspath(path)!r}: {os.fspath(parent)!r} is a file")
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OptionError(
            f"cannot create the folder of {os.fspath(path)!r}: {exc.strerror}"
        ) from None
    if not os.access(parent, os.W_OK):
        raise OptionError(f"cannot write {os.fspath(path)!r}: the folder is not writable")
    return path


# -- tables --------------------------------------------------------------------------------------
def frame_of(rows: Sequence[Mapping[str, Any]], types: Mapping[str, str]) -> pd.DataFrame:
    """The results table of ``rows`` (in their order) with the declared columns and types."""
    import pandas as pd

    columns = list(types)
    seen = set(columns)
    for row in rows:
        for key in row:
            if key not in seen:
                seen.add(key)
                columns.append(key)
    data = {col: pd.Series([row.get(col) for row in rows], dtype=object) for col in columns}
    frame = pd.DataFrame(data)
    for col in columns:
        frame[col] = _typed(frame[col], types.get(col))
    return frame


def _typed(series: pd.Series, dtype: str | None) -> pd.Series:
    """``series`` as ``dtype``, or as the type its values share (text otherwise) when undeclared."""
    import pandas as pd

    if dtype is None:
        values = [v for v in series if not _missing(v)]
        if values and all(isinstance(v, bool) for v in values):
            dtype = "boolean"
        elif values and all(isinstance(v, int) and not isinstance(v, bool) for v in values):
            dtype = "Int64"
        elif values and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in values
        ):
            dtype = "float64"
        else:
            dtype = "string"
    if dtype == "string":
        text = [None if _missing(v) else v if isinstance(v, str) else str(v) for v in series]
        return pd.Series(text, index=series.index, dtype="string")
    series = pd.Series(
        [None if _missing(v) else v for v in series], index=series.index, dtype=object
    )
    if dtype == "float64":
        return pd.to_numeric(series, errors="raise").astype("float64")
    return series.astype(dtype)


def _missing(value: Cell) -> bool:
    """None, NaN or pandas' NA."""
    if value is None:
        return True
    if isinstance(value, (str, bool, int)):
        return False
    if isinstance(value, float):
        return math.isnan(value)
    import pandas as pd

    try:
        return bool(pd.isna(value))
    except (TypeError, ValueError):  # a container: not missing
        return False


def _csv_bool(value: Cell) -> str:
    if _missing(value):
        return ""
    return "true" if value else "false"


def write_results(
    rows: Sequence[Mapping[str, Any]],
    path: str | os.PathLike[str],
    game_columns: Mapping[str, str] | None = None,
    *,
    overwrite: bool = True,
) -> pd.DataFrame:
    """Write ``rows`` (in their order) to ``path``, Parquet or CSV by the extension; return the
    table written.

    The file is written under a temporary name in the same folder, synced, and renamed into place
    (:func:`solver.files.write_whole`), so a reader never sees half a file and a crash leaves the
    old file whole; ``overwrite=False`` never replaces an existing file (``forest analyse``
    without ``--overwrite``). In CSV, missing values are empty and booleans read
    ``true``/``false``.
    """
    from solver.files import write_whole

    path = Path(path)
    fmt = results_format(path)
    check_writer(fmt)
    frame = frame_of(rows, column_types(game_columns))

    def write(temporary: str) -> None:
        if fmt == "parquet":
            frame.to_parquet(temporary, index=False, engine="pyarrow")
            return
        out = frame.copy()
        for col in out.columns:
            if str(out[col].dtype) == "boolean":
                out[col] = [_csv_bool(v) for v in frame[col].astype(object)]
        out.to_csv(temporary, index=False)

    write_whole(path, write, overwrite=overwrite)
    return frame


def read_results(path: str | os.PathLike[str], game: str = "dog") -> pd.DataFrame:
    """Read a results file of ``game`` written by ``forest analyse``, with the declared column
    types (the shared ones and the game's).

    A file that is not one (no ``source`` or ``class`` column, ragged lines, a value of the wrong
    type in a declared column, bad UTF-8) raises a :class:`~solver.errors.FormatError` or an
    :class:`OptionError` naming the file.
    """
    import pandas as pd

    path = Path(path)
    shown = os.fspath(path)
    fmt = results_format(path)
    check_writer(fmt)
    if not path.exists():
        raise OptionError(f"no results file {shown!r}")
    if not path.is_file():
        raise OptionError(f"the results file {shown!r} is not a file")
    if fmt == "parquet":
        try:
            frame = pd.read_parquet(path, engine="pyarrow")
        except Exception as exc:  # pyarrow's errors have no common base class
            raise OptionError(
                f"{shown!r} is not a Parquet results file ({_one_line(exc)})"
            ) from None
        frame = frame.astype(object).where(frame.notna(), None)
    else:
        frame = _read_csv(path)
    missing = [c for c in REQUIRED if c not in frame.columns]
    if missing:
        raise OptionError(
            f"{shown!r} is not a results file of forest analyse: it has no "
            + " and no ".join(repr(c) for c in missing)
            + " column"
        )
    from solver.analysis.sources import analysis_hooks

    types = column_types(analysis_hooks(game).columns)
    read = list(frame.columns)
    for col in frame.columns:
        if col not in types:
            frame[col] = _typed(frame[col].map(_number_or_text), None)
    for col, dtype in types.items():
        if col not in frame.columns:
            frame[col] = pd.Series([None] * len(frame), dtype=object)
            frame[col] = _typed(frame[col], dtype)
            continue
        frame[col] = _checked(frame[col], dtype, col, list(frame.columns).index(col), shown, fmt)
    ordered = list(types) + [c for c in frame.columns if c not in types]
    table = frame[ordered]
    table.attrs["columns_read"] = read  # the file's own columns, before the missing were added
    return table


RESULTS_MAX_BYTES = 1 << 30
"""The largest results CSV read (1 GiB: a million instances' rows is a few hundred MB)."""


def _read_csv(path: Path) -> pd.DataFrame:
    import pandas as pd

    from solver.files import read_bytes

    shown = os.fspath(path)
    data = read_bytes(path, "results file", RESULTS_MAX_BYTES)  # the one opener: never blocks
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as err:
        prefix = data[: err.start]
        line = prefix.count(b"\n") + 1
        column = err.start - (prefix.rfind(b"\n") + 1) + 1
        raise FormatError(
            f"UTF-8 text in the results file {shown}",
            line=line,
            column=column,
            found=f"the byte 0x{data[err.start]:02x}",
        ) from None
    try:
        frame = pd.read_csv(
            path,
            dtype=object,
            keep_default_na=False,
            na_values=[""],
            on_bad_lines="error",
            encoding="utf-8",
        )
    except pd.errors.EmptyDataError:
        raise OptionError(f"{shown!r} is empty, not a results file") from None
    except pd.errors.ParserError as exc:
        text = _one_line(exc)
        found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", text)
        if found:
            expected, at, saw = found.groups()
            raise FormatError(
                f"{expected} fields as in the header of the results file {shown}",
                line=int(at),
                column=1,
                found=f"{saw} fields",
            ) from None
        raise OptionError(f"{shown!r} is not a CSV results file ({text})") from None
    return frame.astype(object).where(frame.notna(), None)


def _checked(
    series: pd.Series, dtype: str, name: str, position: int, shown: str, fmt: str
) -> pd.Series:
    """``series`` converted to ``dtype``; the first value that does not fit is a FormatError."""
    fast = _vectorised(series, dtype)
    if fast is not None:
        return fast
    converted = []
    for number, value in enumerate(series):
        fitted = _fit(value, dtype)
        if fitted is _BAD:
            line = number + 2 if fmt == "csv" else number + 1  # CSV: after the header line
            raise FormatError(
                f"{_KINDS[dtype]} in column {name!r} of the results file {shown}",
                line=line,
                column=position + 1,
                found=_shown_cell(value),
            )
        converted.append(fitted)
    import pandas as pd

    return _typed(pd.Series(converted, index=series.index, dtype=object), dtype)


SHOWN_CELL_CHARS = 60
"""The most of a bad cell an error quotes (a cell of 5,000 digits made a 5,000-character
line)."""


def _shown_cell(value: Cell) -> str:
    """``value`` as an error quotes it: its repr, cut to :data:`SHOWN_CELL_CHARS`."""
    shown = repr(value)
    return shown if len(shown) <= SHOWN_CELL_CHARS else f"{shown[:SHOWN_CELL_CHARS]}..."


def _vectorised(series: pd.Series, dtype: str) -> pd.Series | None:
    """``series`` as ``dtype`` when every value plainly fits (the common case, converted column by
    column); None when some value needs the cell-by-cell check."""
    import pandas as pd

    missing = series.isna().to_numpy()
    try:
        if dtype == "string":
            kind = pd.api.types.infer_dtype(series, skipna=True)
            return series.astype("string") if kind in ("string", "empty") else None
        if dtype == "boolean":
            words = {"true": True, "false": False, "True": True, "False": False, True: True,
                     False: False}  # fmt: skip
            mapped = series.map(lambda v: words.get(v) if isinstance(v, (str, bool)) else None)
            ok = (mapped.isna().to_numpy() == missing).all()
            return mapped.astype("boolean") if ok else None
        kind = pd.api.types.infer_dtype(series, skipna=True)
        if kind not in ("string", "integer", "floating", "mixed-integer-float", "empty"):
            return None
        numbers = pd.to_numeric(series, errors="coerce")
        if not (numbers.isna().to_numpy() == missing).all():
            return None
        if dtype == "float64":
            return numbers.astype("float64")
        values = numbers.dropna()
        if kind == "string" and values.abs().ge(2**53).any():
            return None  # beyond exact floats: let the cell-by-cell check read the digits
        if not (values == values.round()).all():
            return None
        return numbers.astype("Int64")
    except (TypeError, ValueError, OverflowError):
        return None


_BAD = object()


def _fit(value: Cell, dtype: str) -> Any:
    """A file cell as a value of ``dtype`` (None when missing), or :data:`_BAD`."""
    if _missing(value):
        return None
    item = getattr(value, "item", None)  # numpy scalars from Parquet
    if callable(item) and not isinstance(value, (str, bytes)) and getattr(value, "ndim", 1) == 0:
        value = item()
    if dtype == "string":
        return value if isinstance(value, str) else _BAD
    if dtype == "boolean":
        return _fit_boolean(value)
    if isinstance(value, bool):
        return _BAD
    return _fit_whole(value) if dtype == "Int64" else _fit_float(value)


def _fit_boolean(value: Cell) -> bool | object:
    """A boolean cell: a bool, or its text (``true``/``True``...); else :data:`_BAD`."""
    if isinstance(value, bool):
        return value
    if not isinstance(value, str):
        return _BAD
    return {"true": True, "false": False, "True": True, "False": False}.get(value, _BAD)


def _fit_whole(value: Cell) -> int | object:
    """A whole-number cell: an int, a float with no fraction, or up to 19 digits of text."""
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,19}", value.strip()):
        return int(value)
    return _BAD


def _fit_float(value: Cell) -> float | object:
    """A number cell: an int or a float, or text that reads as one."""
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return _BAD
    return _BAD


def _number_or_text(value: Cell) -> Cell:
    """A CSV cell of an undeclared column: a bool, an int, a float, or the text itself."""
    if not isinstance(value, str):
        return value
    if value in ("true", "false", "True", "False"):
        return value in ("true", "True")
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


def without_timing(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` without the columns that measure time: what must agree between runs.

    >>> import pandas as pd
    >>> list(without_timing(pd.DataFrame({"source": ["seed:1"], "seconds": [0.2]})).columns)
    ['source']
    """
    return frame.drop(columns=[c for c in TIMING_COLUMNS if c in frame.columns])
