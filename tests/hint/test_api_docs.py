"""Found by review: ``GET /docs`` was FastAPI's Swagger UI, which loads its script and style
from a CDN, so on a machine without network it was a blank page (``/redoc`` likewise). It is
now a page the server renders itself (``solver.hint.apidocs``): no script, nothing fetched from
elsewhere, every route of the app listed. The routes are read from the routers the app is
built from, not from the OpenAPI document the page is built from."""

from __future__ import annotations

from html.parser import HTMLParser

from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from solver.hint.apidocs import docs_page
from solver.hint.engine import Caps
from solver.hint.routes import Service, api_router, table_router
from solver.hint.server import create_app


class _Page(HTMLParser):
    """The page's tags, their attributes, and the table's rows as lists of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[list[str]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)


def test_docs_is_our_own_page_and_lists_every_route() -> None:
    app = create_app()
    client = TestClient(app)  # no lifespan: no worker pool is started for these GETs
    answer = client.get("/docs")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/html")
    assert answer.headers["content-security-policy"].startswith("default-src 'none'")
    page = _Page()
    page.feed(answer.text)
    tags = {tag for tag, _ in page.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed"}  # nothing loaded
    assert "://" not in answer.text and "//" not in answer.text.replace("</", "")
    hrefs = {attrs.get("href") for tag, attrs in page.tags if tag == "a"}
    assert hrefs == {"/openapi.json", "/v1/schema"}
    listed = {(row[0].upper(), row[1]) for row in page.rows if len(row) == 3}
    service = Service(Caps(), workers=1, queue=1)  # the routers the app is built from
    routes = {
        (method, route.path)
        for router in (api_router(service), table_router(service))
        for route in router.routes
        if isinstance(route, APIRoute) and route.include_in_schema
        for method in route.methods
    }
    assert len(routes) >= 15 and listed == routes
    assert client.head("/docs").status_code == 200
    assert client.get("/openapi.json").status_code == 200
    for gone in ("/redoc", "/docs/oauth2-redirect"):  # FastAPI's other CDN pages: not served
        refused = client.get(gone)
        assert refused.status_code == 404 and refused.json()["code"] == "not_found", gone


def test_the_docs_page_escapes_what_it_shows() -> None:
    """A summary or path holding markup is shown as text, not run."""
    schema = {
        "info": {"title": "<b>t</b>", "version": "1", "description": "uses ``x<y``"},
        "paths": {"/a<script>": {"post": {"summary": "<script>alert(1)</script>"}}},
    }
    page = docs_page(schema)
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<code>x&lt;y</code>" in page and "<b>t</b>" not in page


def test_each_error_status_is_listed_with_its_codes() -> None:
    """A new user's pass (h124): each route's row said "errors: 400, 413, 415, 500, 503, 504",
    the numbers alone, so which codes a 503 carries (a full queue's ``overloaded``, a full
    session table's ``too_many_sessions``) was only in /openapi.json. Each status is listed
    with the description /openapi.json gives it."""
    client = TestClient(create_app())
    document = client.get("/openapi.json").json()
    page = _Page()
    page.feed(client.get("/docs").text)
    cells = {row[1]: row[2] for row in page.rows if len(row) == 3}
    for path, item in document["paths"].items():
        for operation in item.values():
            for status, answer in operation.get("responses", {}).items():
                if not status.startswith("2"):
                    assert f"{status} {answer['description']}" in cells[path], (path, status)
    assert (
        "503 busy: retry after Retry-After seconds: code overloaded, too_many_sessions"
        in (cells["/v1/table/start"])
    )


def test_only_a_session_s_start_lists_too_many_sessions() -> None:
    """The new listing showed /v1/hint's 503 as "code overloaded, too_many_sessions": every POST
    shared one description, though only /v1/table/start refuses a new session
    (docs/hint-engine.md's error table). The other routes' 503 is ``overloaded`` alone."""
    document = TestClient(create_app()).get("/openapi.json").json()
    said = {
        path: item["post"]["responses"]["503"]["description"]
        for path, item in document["paths"].items()
        if "503" in item.get("post", {}).get("responses", {})
    }
    assert said["/v1/table/start"].endswith("code overloaded, too_many_sessions")
    assert len(said) >= 10
    for path, words in said.items():
        if path != "/v1/table/start":
            assert words.endswith("code overloaded"), (path, words)
