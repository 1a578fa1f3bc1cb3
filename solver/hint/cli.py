"""``forest hint`` (JSON lines on stdin/stdout) and ``forest serve`` (the HTTP service).

Examples::

    forest hint --stdio < requests.jsonl
    forest hint --schema > hint-schema.json
    forest serve --port 8000            # http://127.0.0.1:8000/ is the web table
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from solver.cli_position import memory_mb
from solver.cmdkit import (
    MAX_WORKER_PROCESSES,
    Subcommands,
    path_arg,
    positive_float,
    positive_float_up_to,
    positive_int,
    whole_from,
    whole_from_1_to,
)
from solver.errors import OptionError
from solver.hint.limits import MAX_CAP_SECONDS, Caps

__all__ = ["add_hint_command", "caps_from"]

_DEFAULTS = Caps()

MAX_WORKERS = MAX_WORKER_PROCESSES
"""The most search processes ``--workers`` starts (:data:`solver.cmdkit.MAX_WORKER_PROCESSES`)."""


_memory_cap = memory_mb
"""``--max-memory-mb``: at most what a search takes (a larger cap was taken, then every request
was refused naming ``memory_mb``)."""


_seconds_cap = positive_float_up_to(MAX_CAP_SECONDS)

_CAPS = (
    ("--max-iterations", positive_int, "N", "cap on a request's MCTS simulations"),
    ("--max-seconds", _seconds_cap, "SECONDS", "cap on a request's search seconds"),
    ("--max-memory-mb", _memory_cap, "MB", "cap on a search's memory in MB"),
    ("--max-review-seconds", _seconds_cap, "SECONDS", "cap on a whole review's seconds"),
)
"""The budget caps both commands take: the flag (its ``Caps`` field is its argparse ``dest``),
the argument type, its metavar and what it caps."""


def _cap_field(flag: str) -> str:
    return flag.removeprefix("--").replace("-", "_")


def _cap_options(p: argparse.ArgumentParser, workers: int) -> None:
    for flag, kind, metavar, what in _CAPS:
        default = getattr(_DEFAULTS, _cap_field(flag))
        p.add_argument(
            flag, type=kind, default=default, metavar=metavar, help=f"{what} (default {default:g})"
        )
    p.add_argument(
        "--workers", type=whole_from_1_to(MAX_WORKERS), default=workers, metavar="N",
        help=f"searches run at once (default {workers}, the CPU count; at most {MAX_WORKERS})",
    )  # fmt: skip


_CONNECTION_OPTIONS = (
    ("--head-timeout", "head_seconds", positive_float, "SECONDS",
     "close a connection whose request head is not complete within SECONDS of opening or of the "
     "last answer"),
    ("--body-timeout", "body_seconds", positive_float, "SECONDS",
     "close a connection whose body is not complete within SECONDS of its head"),
    ("--keep-alive", "keep_alive_seconds", positive_float, "SECONDS",
     "close a kept-alive connection idle for SECONDS"),
    ("--max-keepalive-requests", "max_requests", positive_int, "N",
     "close a connection after N answers"),
    ("--max-connections", "max_connections", positive_int, "N",
     "answer 503 past N open connections"),
)  # fmt: skip
"""``forest serve``'s connection limits: the flag, its ``CONNECTION_DEFAULTS`` key, the argument
type, its metavar and what it does."""


def _connection_options(p: argparse.ArgumentParser) -> None:
    from solver.hint.limits import CONNECTION_DEFAULTS as d

    for flag, key, kind, metavar, what in _CONNECTION_OPTIONS:
        p.add_argument(
            flag, type=kind, default=d[key], metavar=metavar, help=f"{what} (default {d[key]:g})"
        )


def _host(text: str) -> str:
    """``--host``: any address but the empty one, which would bind every interface unasked."""
    if not text.strip():
        raise argparse.ArgumentTypeError(
            "an empty address would listen on every interface; name it (0.0.0.0 for every "
            "interface, 127.0.0.1 for this machine only)"
        )
    return text


def _origin(text: str) -> str:
    """``--cors-origin``: ``*``, or an origin as a browser sends it in its ``Origin`` header,
    ``scheme://host[:port]``. The middleware compares the header with each origin exactly, so a
    trailing slash, a path, a space or an empty text never matched one: CORS stayed off, unsaid."""
    from urllib.parse import urlsplit

    if text == "*":
        return text
    try:
        parts = urlsplit(text)
        port_ok = parts.port is None or parts.port > 0
    except ValueError:
        parts, port_ok = None, False
    if (
        parts is None
        or not port_ok
        or not parts.scheme
        or not parts.hostname
        or parts.username is not None
        or any((parts.path, parts.query, parts.fragment))
        or any(c.isspace() for c in text)
    ):
        raise argparse.ArgumentTypeError(
            "expected an origin as a browser sends it, scheme://host[:port] with no path or "
            f"trailing slash (http://localhost:3000), or *; found {text!r}"
        )
    return text


def caps_from(args: argparse.Namespace) -> Caps:
    """The budget caps the command's options name."""
    return Caps(**{_cap_field(flag): getattr(args, _cap_field(flag)) for flag, *_ in _CAPS})


def _hint(args: argparse.Namespace) -> int:
    if args.schema:
        from solver.hint.schema import json_schema

        print(json.dumps(json_schema(), indent=2))
        return 0
    if not args.stdio:
        raise OptionError("give --stdio (JSON lines on stdin and stdout) or --schema")
    from solver.hint.stdio import answers_unwritable, serve_lines

    if sys.__stdout__ is None:  # closed (`>&-`): every answer would go nowhere, exit 0 said so
        raise answers_unwritable("standard output is closed")
    from solver.hint.jobs import warm_games

    # every game imported before the first request's clock starts (as serve's), under the stop
    # signals: a SIGTERM during the warm-up (seconds under load) is a stop, exit 0
    return serve_lines(sys.stdin, sys.stdout, workers=args.workers, caps=caps_from(args),
                       stop_on_signals=True, prepare=warm_games)  # fmt: skip


def _serve(args: argparse.Namespace) -> int:
    # the schema first: without the serve extra its pydantic is what is missing, and the
    # ModuleNotFoundError goes to `forest`'s main, which names the extra in one line
    import solver.hint.schema  # noqa: F401
    from solver.hint.server import run_server

    return run_server(args, caps_from(args))


def add_hint_command(commands: Subcommands) -> None:
    """Add ``forest hint`` and ``forest serve`` to the ``forest`` sub-commands."""
    cpus = os.cpu_count() or 1
    p = commands.add_parser(
        "hint", help="the hint engine over JSON lines (stdin to stdout)",
        description="Answer hint requests, one JSON object a line (docs/hint-engine.md).",
    )  # fmt: skip
    p.add_argument("--stdio", action="store_true", help="read requests on stdin, answer on stdout")
    p.add_argument("--schema", action="store_true", help="print the JSON Schema and exit")
    _cap_options(p, max(2, cpus))
    p.set_defaults(handler=_hint)

    p = commands.add_parser(
        "serve", help="the hint engine over HTTP, with the web table at /",
        description="Serve hints, analyses and reviews over HTTP (docs/hint-engine.md).",
    )  # fmt: skip
    p.add_argument(
        "--host", default="127.0.0.1", type=_host,
        help="the address to bind (default 127.0.0.1, local only)",
    )  # fmt: skip
    p.add_argument(
        "--port",
        type=whole_from(0, 65535),
        default=8000,
        help="the port (default 8000; 0 picks a free one)",
    )
    p.add_argument(
        "--queue", type=positive_int, default=32, metavar="N",
        help="requests admitted beyond the running ones before 503 (default 32)",
    )  # fmt: skip
    p.add_argument(
        "--max-body-bytes", type=positive_int, default=1 << 20, metavar="BYTES",
        help="the largest request body (default 1 MiB; larger: 413)",
    )  # fmt: skip
    p.add_argument(
        "--cors-origin", action="append", default=[], metavar="ORIGIN", type=_origin,
        help="allow cross-origin requests from ORIGIN (repeatable; default: none)",
    )  # fmt: skip
    p.add_argument(
        "--port-file", default=None, type=path_arg, metavar="FILE",
        help="write the port actually bound to FILE once the server listens (FILE must not exist; "
        "it is removed at exit if it is still the file written)",
    )  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no access logs")
    _connection_options(p)
    _cap_options(p, cpus)
    p.set_defaults(handler=_serve)
