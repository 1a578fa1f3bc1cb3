"""The board as a graph, built once per pack: spaces, neighbours, tunnels, expedition paths, reach.

Movement costs one movement symbol per step along a line; every open tunnel space is one step from
every other open tunnel space; entering an expedition's start space ends the move, and the other
expedition spaces are never entered by movement (only by advancing).

>>> from solver.games.trial.content import default_pack
>>> board = Board(default_pack())
>>> board.kind["start-1"], board.area_of["frosty-3"], board.finish["frosty-3"]
('start', 'frosty', 3)
>>> sorted(board.reachable("start-1", 1, open_tunnels=set()))
['grove-2', 'path-05', 'start-2', 'start-3']
"""

from __future__ import annotations

from collections import deque
from typing import Any

from solver.games.trial.content import Pack


class Board:
    """Static facts about one pack's board (what never changes during a game)."""

    def __init__(self, pack: Pack):
        board = pack.board
        self.spaces: list[str] = [s["id"] for s in board["spaces"]]
        self.kind: dict[str, str] = {s["id"]: s["kind"] for s in board["spaces"]}
        self.slot: dict[str, str] = {s["id"]: s["slot"] for s in board["spaces"] if "slot" in s}
        self.quarter: dict[str, str] = {
            s["id"]: s["quarter"] for s in board["spaces"] if "quarter" in s
        }
        self.campsite: dict[str, str] = {
            s["id"]: s["campsite"] for s in board["spaces"] if "campsite" in s
        }
        self.printed_tunnels: set[str] = {s["id"] for s in board["spaces"] if s.get("tunnel")}
        self.xy: dict[str, tuple[float, float]] = {
            s["id"]: (float(s["x"]), float(s["y"])) for s in board["spaces"]
        }
        self.neighbours: dict[str, list[str]] = {s: [] for s in self.spaces}
        for a, b in board["edges"]:
            self.neighbours[a].append(b)
            self.neighbours[b].append(a)
        self.areas: list[str] = list(board["areas"])
        self.area_of: dict[str, str] = {}
        self.area_start: dict[str, str] = {}
        self.area_exit: dict[str, str] = {}
        self.finish: dict[str, int] = {}
        self.finish_resource: dict[str, str] = {}
        self.paths: dict[str, list[dict[str, Any]]] = {}
        for name, area in board["areas"].items():
            self.area_start[name] = area["start"]
            self.area_exit[name] = area["exit"]
            for s in area["spaces"]:
                self.spaces.append(s["id"])
                self.kind[s["id"]] = "expedition"
                self.area_of[s["id"]] = name
                self.xy[s["id"]] = (float(s["x"]), float(s["y"]))
                self.paths[s["id"]] = []
                if "finish" in s:
                    self.finish[s["id"]] = int(s["finish"])
                if "resource" in s:
                    self.finish_resource[s["id"]] = s["resource"]
            for p in area["paths"]:
                self.paths[p["from"]].append(p)
        self.index: dict[str, int] = {s: i for i, s in enumerate(self.spaces)}
        self.location_slots: list[str] = [s for s in self.spaces if s in self.slot]
        self.campsites: list[str] = [s for s in self.spaces if s in self.campsite]
        self.starts: list[str] = [s for s in self.spaces if self.kind[s] == "start"]

    def on_expedition(self, space: str) -> bool:
        """Whether ``space`` is inside an expedition area (its start space included)."""
        return space in self.area_of

    def reachable(self, origin: str, budget: int, open_tunnels: set[str]) -> dict[str, int]:
        """Every space a move of at most ``budget`` steps from ``origin`` can end on, with its
        distance. Expedition start spaces end a move; other expedition spaces are unreachable."""
        dist, _ = self._search(origin, budget, open_tunnels)
        dist.pop(origin)
        return dist

    def route(
        self, origin: str, goal: str, budget: int | None, open_tunnels: set[str]
    ) -> list[str] | None:
        """The way a move of at most ``budget`` steps (``None``: any number) from ``origin``
        takes to ``goal`` under the movement rules (the search :meth:`reachable` makes), both
        ends included: a shortest one; ``None`` when no such move ends on ``goal``."""
        limit = budget if budget is not None else len(self.spaces)
        _, parent = self._search(origin, limit, open_tunnels)
        if goal == origin or goal not in parent:
            return None
        way: list[str] = []
        at: str | None = goal
        while at is not None:
            way.append(at)
            at = parent[at]
        return way[::-1]

    def _search(
        self, origin: str, budget: int, open_tunnels: set[str]
    ) -> tuple[dict[str, int], dict[str, str | None]]:
        """Breadth-first over the moves from ``origin`` of at most ``budget`` steps: each space
        reached (``origin`` included) with its distance and the space it is entered from."""
        dist = {origin: 0}
        parent: dict[str, str | None] = {origin: None}
        queue = deque([origin])
        while queue:
            here = queue.popleft()
            if dist[here] >= budget:
                continue
            if here != origin and here in self.area_of:
                continue  # an expedition start space stops the move
            steps = list(self.neighbours.get(here, []))
            if here in open_tunnels:  # sorted: the same route in every process
                steps += [t for t in sorted(open_tunnels) if t != here]
            if here in self.area_exit.values():
                steps += [self.area_start[a] for a in self.areas if self.area_exit[a] == here]
            for nxt in steps:
                if nxt not in dist and (nxt not in self.area_of or nxt in self.area_start.values()):
                    dist[nxt] = dist[here] + 1
                    parent[nxt] = here
                    queue.append(nxt)
        return dist, parent

    def successors(self, space: str, line: str) -> list[dict[str, Any]]:
        """The expedition paths leaving ``space`` that a card's ``advance`` along ``line`` may use
        (``any``: every path)."""
        return [p for p in self.paths.get(space, []) if line == "any" or p.get("line") == line]

    def deeper_finishes(self, space: str) -> list[str]:
        """Finishing spaces strictly after ``space`` along its area's paths."""
        seen: set[str] = set()
        stack = [p["to"] for p in self.paths.get(space, [])]
        while stack:
            s = stack.pop()
            if s in seen:
                continue
            seen.add(s)
            stack.extend(p["to"] for p in self.paths.get(s, []))
        return sorted(s for s in seen if s in self.finish)

    def nearest_finish(self, area: str) -> str:
        """The finishing space fewest steps from the area's start (ties: the lower fame)."""
        start = self.area_start[area]
        dist = {start: 0}
        queue = deque([start])
        while queue:
            s = queue.popleft()
            for p in self.paths.get(s, []):
                if p["to"] not in dist:
                    dist[p["to"]] = dist[s] + 1
                    queue.append(p["to"])
        return min((d, self.finish[s], s) for s, d in dist.items() if s in self.finish)[2]
