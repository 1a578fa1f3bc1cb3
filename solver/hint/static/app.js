// The forest table: plays any registered game through the hint engine's HTTP API.
// No build step, no dependency. State lives in `table` (read by the browser test).
"use strict";

const table = {
  games: [],
  spec: null,
  options: {},
  actions: [],
  position: null,
  lastHint: null,
  rng: null,
  busy: 0,
};
window.table = table;

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";

// mulberry32: a small seeded generator, so a dice seed replays the same game
function seeded(seed) {
  let a = seed >>> 0;
  return function () {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function api(path, body) {
  table.busy += 1;
  try {
    const response = await fetch(path, body === undefined ? {} : {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) {
      throw new Error(data.error || `HTTP ${response.status}`);
    }
    return data;
  } finally {
    table.busy -= 1;
  }
}

function request(extra) {
  return { game: table.spec.name, options: table.options, actions: table.actions, ...extra };
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

// A failed request leaves a clean, visible error state: no board, no moves, nothing to act on
// (Roll and Hint would otherwise act on the previous game's position).
function showFailure(error) {
  table.position = null;
  clearHint();
  $("board").innerHTML = "";
  $("text-board").hidden = true;
  $("text-board").textContent = "";
  $("moves").innerHTML = "";
  $("chance").hidden = true;
  $("outcomes").textContent = "";
  $("hint").disabled = true;
  $("status").textContent = "Error: the position could not be shown.";
  $("status").dataset.state = "error";
  showError(error);
}

async function loadGames() {
  table.games = await api("/v1/games");
  const select = $("game");
  select.innerHTML = "";
  for (const game of table.games) {
    const option = document.createElement("option");
    option.value = game.name;
    option.textContent = `${game.name}: ${game.title}`;
    select.appendChild(option);
  }
  chooseGame();
}

const DEFAULT_SETUP = "";  // the puzzle select's value for the game's default set-up

function chooseGame() {
  const spec = table.games.find((g) => g.name === $("game").value) || table.games[0];
  table.spec = spec;
  const puzzles = $("puzzle");
  puzzles.innerHTML = "";
  $("puzzle-label").hidden = !spec.puzzles.length;
  if (spec.defaultSource && spec.puzzles.length) {
    const option = document.createElement("option");
    option.value = DEFAULT_SETUP;
    option.textContent = "the default set-up";
    puzzles.appendChild(option);
  }
  for (const name of spec.puzzles) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    puzzles.appendChild(option);
  }
  $("size-label").hidden = !spec.roll;
  $("roll-new").hidden = !spec.roll;
  const players = $("players");
  players.innerHTML = "";
  $("players-label").hidden = spec.players.length < 2;
  for (const n of spec.players) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    players.appendChild(option);
  }
}

async function newGame(event, rolled) {
  if (event) event.preventDefault();
  showError(null);
  const spec = table.spec;
  table.options = rolled ? { ...rolled } : {};
  const puzzle = $("puzzle").value;
  if (!rolled && spec.sourceOption && spec.puzzles.length && puzzle !== DEFAULT_SETUP) {
    table.options[spec.sourceOption] = puzzle;
  }
  if (spec.players.length > 1) {
    table.options.players = Number($("players").value);
  }
  table.actions = [];
  table.rng = seeded(Number($("seed").value) || 0);
  $("history").innerHTML = "";
  await refresh();
}

async function rollNew() {
  showError(null);
  const [width, height] = $("size").value.toLowerCase().split("x").map(Number);
  try {
    const rolled = await api("/v1/roll", {
      game: table.spec.name, seed: Number($("seed").value) || 0, width, height,
    });
    await newGame(null, rolled.options);
  } catch (error) {
    showFailure(error);
  }
}

function clearHint() {
  table.lastHint = null;
  $("hint-table").hidden = true;
  $("hint-table").querySelector("tbody").innerHTML = "";
  $("root-value").textContent = "";
  $("hint-notes").textContent = "";
}

async function refresh() {
  clearHint();
  try {
    table.position = await api("/v1/position", request({}));
  } catch (error) {
    showFailure(error);
    return;
  }
  draw();
}

function draw() {
  const position = table.position;
  const board = $("board");
  board.innerHTML = position.svg || "";
  $("text-board").hidden = Boolean(position.svg);
  $("text-board").textContent = position.svg ? "" : position.text || "";
  const svg = board.querySelector("svg");
  if (svg) svg.addEventListener("click", onBoardClick);
  let status;
  if (position.terminal) {
    const returns = position.returns || [];
    status = returns.length === 1
      ? (returns[0] >= 1 ? "Game over: won." : "Game over: lost.")
      : `Game over: returns ${returns.map((r) => r.toFixed(2)).join(", ")}.`;
  } else if (position.chance) {
    status = "Chance: roll or draw.";
  } else {
    status = `Player ${position.currentPlayer} to move.`;
  }
  $("status").textContent = status;
  $("status").dataset.state = position.terminal ? "over" : position.chance ? "chance" : "decision";
  $("chance").hidden = !position.chance;
  $("outcomes").textContent = position.outcomes
    .map((o) => `${o.label} (${(100 * o.probability).toFixed(1)}%)`).join(", ");
  const moves = $("moves");
  moves.innerHTML = "";
  if (!position.chance && !position.terminal) {
    for (const move of position.moves) {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = move.label;
      button.dataset.action = String(move.action);
      button.addEventListener("click", () => play(move.action));
      moves.appendChild(button);
    }
  }
  $("hint").disabled = position.terminal;
}

async function play(action) {
  if (!table.position) return;
  const label = [...table.position.moves, ...table.position.outcomes]
    .find((m) => m.action === action)?.label ?? String(action);
  table.actions = [...table.actions, action];
  const item = document.createElement("li");
  item.textContent = label;
  $("history").appendChild(item);
  await refresh();
}

async function roll() {
  if (!table.position) return;
  const outcomes = table.position.outcomes;
  if (!outcomes.length) return;
  const x = table.rng();
  let total = 0;
  let chosen = outcomes[outcomes.length - 1].action;
  for (const outcome of outcomes) {
    total += outcome.probability;
    if (x < total) {
      chosen = outcome.action;
      break;
    }
  }
  await play(chosen);
}

function svgPoint(svg, event) {
  const point = svg.createSVGPoint();
  point.x = event.clientX;
  point.y = event.clientY;
  return point.matrixTransform(svg.getScreenCTM().inverse());
}

function onBoardClick(event) {
  const position = table.position;
  if (!position) return;
  const targets = position.movePoints || {};
  if (position.chance || position.terminal || !Object.keys(targets).length) return;
  const at = svgPoint(event.currentTarget, event);
  let best = null;
  let bestDistance = Infinity;
  let tie = false;
  for (const [action, point] of Object.entries(targets)) {
    if (!point) continue;
    const d = Math.hypot(point[0] - at.x, point[1] - at.y);
    if (d < bestDistance - 1e-9) {
      best = Number(action);
      bestDistance = d;
      tie = false;
    } else if (Math.abs(d - bestDistance) <= 1e-9) {
      tie = true;
    }
  }
  if (best === null || tie) {
    showError("several moves end there: use the move buttons");
    return;
  }
  showError(null);
  play(best);
}

function drawPath(points) {
  const svg = $("board").querySelector("svg");
  if (!svg || !points || points.length < 2 || points.some((p) => !p)) return;
  svg.querySelectorAll(".hint-path, .hint-dot").forEach((node) => node.remove());
  const line = document.createElementNS(SVG_NS, "polyline");
  line.setAttribute("class", "hint-path");
  line.setAttribute("points", points.map((p) => `${p[0]},${p[1]}`).join(" "));
  svg.appendChild(line);
  const end = points[points.length - 1];
  const dot = document.createElementNS(SVG_NS, "circle");
  dot.setAttribute("class", "hint-dot");
  dot.setAttribute("cx", end[0]);
  dot.setAttribute("cy", end[1]);
  dot.setAttribute("r", "1.6");
  svg.appendChild(dot);
}

async function hint() {
  if (!table.position) return;
  showError(null);
  const iterations = Math.max(1, Number($("iterations").value) || 1000);
  let answer;
  try {
    answer = await api("/v1/hint", request({
      id: `web-${table.actions.length}`, limit: { iterations }, top_k: 3, seed: 0,
    }));
  } catch (error) {
    showError(error);
    return;
  }
  table.lastHint = answer;
  const body = $("hint-table").querySelector("tbody");
  body.innerHTML = "";
  for (const move of answer.moveInfos) {
    const row = document.createElement("tr");
    row.dataset.action = String(move.action);
    for (const cell of [move.order + 1, move.label, move.value.toFixed(4), move.visits]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      row.appendChild(td);
    }
    body.appendChild(row);
  }
  $("hint-table").hidden = !answer.moveInfos.length;
  const root = answer.rootInfo;
  const kind = root.exact ? "exact"
    : `${root.method === "ismcts" ? "ISMCTS" : "MCTS"} estimate, ${root.visits} simulations`;
  $("root-value").textContent = `${root.valueKind} (${kind}): ${root.value.toFixed(4)}`;
  $("root-value").dataset.method = root.method;
  $("hint-notes").textContent = (answer.notes || []).join(" ");
  if (answer.moveInfos.length && table.position.movePoints
      && Object.keys(table.position.movePoints).length) {
    try {
      const path = await api("/v1/position", request({ pv: answer.moveInfos[0].pv }));
      drawPath(path.pvPoints);
    } catch (error) {
      showError(error);
    }
  }
}

// choosing a game starts it; choosing a player count starts the game's default set-up for it
$("game").addEventListener("change", () => { chooseGame(); newGame(); });
$("players").addEventListener("change", () => {
  if (table.spec.defaultSource) $("puzzle").value = DEFAULT_SETUP;
  newGame();
});
$("puzzle").addEventListener("change", () => newGame());
$("setup").addEventListener("submit", newGame);
$("roll").addEventListener("click", roll);
$("roll-new").addEventListener("click", rollNew);
$("hint").addEventListener("click", hint);
loadGames().then(() => newGame()).catch(showFailure);
