"""``GET /docs``: the HTTP service's endpoints as one plain HTML page, built from its own OpenAPI
document (``/openapi.json``).

FastAPI's own ``/docs`` (Swagger UI) and ``/redoc`` load their script and style from a CDN, so on
a machine without network they showed a blank page. This page is rendered by the server from
the app's OpenAPI document: every path, its method, summary and description, and the request
body's schema by name; no script, no style or font from elsewhere, nothing fetched (its
``Content-Security-Policy`` says so). ``/openapi.json`` and ``/v1/schema`` stay the
machine-readable documents it links to.

The OpenAPI document says the errors the service answers (:func:`answered_errors_only`):
FastAPI lists a 422 "Validation Error" for every route that takes a body, but the service
answers a request that fails validation with 400 and its error object, never 422.
"""

from __future__ import annotations

import html
import json
import re
from typing import Any

from solver.errors import needs_extra

with needs_extra("the hint service"):  # the serve extra: the API names it
    from fastapi import FastAPI
    from fastapi.responses import HTMLResponse

__all__ = ["DOCS_PATH", "answered_errors_only", "docs_page", "mount_docs"]

DOCS_PATH = "/docs"
"""Where the page is served (FastAPI's own docs path, which the app no longer serves)."""

METHODS = ("get", "put", "post", "delete", "patch", "head", "options")
"""The keys of an OpenAPI path item that are operations, in the order the page lists them."""

POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
"""The page's ``Content-Security-Policy``: it loads nothing, its one style is inline."""

STYLE = """
body { font-family: sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ccc; padding: 0.4em; text-align: left; vertical-align: top; }
td.method { font-family: monospace; font-weight: bold; text-transform: uppercase; }
code { background: #f3f3f3; }
ul.errors { margin: 0.2em 0 0; padding-left: 1.2em; font-size: 0.9em; }
"""


def _words(text: str) -> str:
    """``text`` escaped for HTML, its ``literals`` (the docstrings' reST) as ``<code>``."""
    return re.sub(r"``(.+?)``", r"<code>\1</code>", html.escape(text), flags=re.DOTALL)


def _body_model(operation: dict[str, Any]) -> str:
    """The name of the operation's JSON request body schema (``""``: none, or unnamed)."""
    content = operation.get("requestBody", {}).get("content", {})
    ref = content.get("application/json", {}).get("schema", {}).get("$ref", "")
    return str(ref).rsplit("/", 1)[-1]


def _errors(operation: dict[str, Any]) -> str:
    """The error statuses the operation declares, each with its description (the error codes
    it answers them with), as the page shows them (``""``: none). The numbers alone ("errors:
    400, ..., 503") left a reader to find in /openapi.json which 503 a full server's
    ``too_many_sessions`` was."""
    responses = operation.get("responses", {})
    statuses = sorted(str(s) for s in responses if not str(s).startswith("2"))
    if not statuses:
        return ""
    items = [f"<li><b>{html.escape(status)}</b> "
             f"{_words(str(responses[status].get('description', '')))}</li>"
             for status in statuses]  # fmt: skip
    return f'<br>errors:<ul class="errors">{"".join(items)}</ul>'


def _row(path: str, method: str, operation: dict[str, Any]) -> str:
    summary = _words(str(operation.get("summary", "")))
    description = str(operation.get("description", "")).strip().split("\n\n")[0]
    model = _body_model(operation)
    body = f"<br>body: <code>{html.escape(model)}</code>" if model else ""
    errors = _errors(operation)
    return (f'<tr><td class="method">{method}</td><td><code>{html.escape(path)}</code></td>'
            f"<td><b>{summary}</b><br>{_words(description)}{body}{errors}</td></tr>")  # fmt: skip


def docs_page(openapi: dict[str, Any]) -> str:
    """The HTML page listing every operation of the OpenAPI document ``openapi``."""
    info = openapi.get("info", {})
    title = html.escape(str(info.get("title", "API")))
    version = html.escape(str(info.get("version", "")))
    rows = [
        _row(path, method, item[method])
        for path, item in openapi.get("paths", {}).items()
        for method in METHODS
        if method in item
    ]
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{title}: the endpoints</title><style>{STYLE}</style></head><body>",
        f"<h1>{title} <small>(version {version})</small></h1>",
        f"<p>{_words(str(info.get('description', '')))}</p>",
        '<p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI), '
        '<a href="/v1/schema">/v1/schema</a> (the requests and answers as JSON Schema).</p>',
        "<table><thead><tr><th>method</th><th>path</th><th>what it does</th></tr></thead>",
        "<tbody>", *rows, "</tbody></table>",
        "</body></html>",
    ])  # fmt: skip


UNANSWERED = "422"
"""FastAPI's validation error status, which it adds to every operation taking a body or
parameters; the service answers such a request 400 with its error object instead."""

VALIDATION_SCHEMAS = ("HTTPValidationError", "ValidationError")
"""The schemas FastAPI adds for its 422 answers (kept if anything else refers to them)."""


def _referred(document: dict[str, Any], name: str) -> bool:
    """Whether anything in ``document`` but the schema ``name`` itself refers to it."""
    components = document.get("components", {})
    schemas = {k: v for k, v in components.get("schemas", {}).items() if k != name}
    rest = {**document, "components": {**components, "schemas": schemas}}
    return f'"#/components/schemas/{name}"' in json.dumps(rest)


def answered_errors_only(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI document (``/openapi.json``, the ``/docs`` page) list no 422
    answer, nor the schemas only it used: the service never answers 422 (a request that fails
    validation gets 400 and the error object, which each route declares), so a client generator
    read an answer that never comes and the page showed a status no request gets."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        document = build()  # FastAPI's, cached on the app: cleaning it again finds nothing
        for item in document.get("paths", {}).values():
            for method in METHODS:
                item.get(method, {}).get("responses", {}).pop(UNANSWERED, None)
        schemas = document.get("components", {}).get("schemas", {})
        for name in VALIDATION_SCHEMAS:  # in order: the first refers to the second
            if name in schemas and not _referred(document, name):
                del schemas[name]
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def mount_docs(app: FastAPI) -> None:
    """Serve :func:`docs_page` of ``app``'s OpenAPI document at :data:`DOCS_PATH` (GET and
    HEAD), rendered once on first asking. The app must be built with ``docs_url=None`` and
    ``redoc_url=None`` (FastAPI's pages, which load their files from a CDN)."""
    rendered: list[str] = []

    @app.api_route(DOCS_PATH, methods=["GET", "HEAD"], include_in_schema=False)
    async def docs() -> HTMLResponse:
        if not rendered:
            rendered.append(docs_page(app.openapi()))
        return HTMLResponse(rendered[0], headers={"Content-Security-Policy": POLICY})
