"""The hint engine: one schema, two transports (JSON lines, HTTP), the web table's files.

``solver.hint.engine.answer(request)`` answers one request dict; ``forest hint --stdio`` speaks
JSON lines (:mod:`solver.hint.stdio`), ``forest serve`` HTTP (:mod:`solver.hint.server`, the
``serve`` extra). ``docs/hint-engine.md`` describes the schema, the limits and the error codes.
"""
