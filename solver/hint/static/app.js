// The forest table: plays and reviews any registered game through the hint engine's HTTP API,
// as an analysis board (step through the moves, take back, the value graph, the review's marks,
// each player's accuracy, records saved and loaded). No build step, no dependency, and no game's
// name: everything game-specific comes from the server (/v1/games and /v1/position).
// State lives in `table` (read by the browser tests).
"use strict";

const table = {
  games: [],
  spec: null,
  options: {},
  start: null, // a saved position (state JSON) the game starts from, or null: the set-up
  actions: [], // the game's line: every action, chance outcomes included
  line: [], // each action as {action, label, player} (player -1: a chance outcome)
  cursor: 0, // the ply shown: actions[0..cursor) are played
  position: null,
  lastHint: null,
  rng: null,
  busy: 0,
  review: null, // {curve: {ply: point}, decisions: {ply: decision}, reviewed, total, running}
  reviewRun: 0, // bumped to stop a running review when the line changes
  seat: 0,
  session: null, // a server-kept session: {id, view}; the page then holds only the seat's view
  sessionBusy: false, // a session step is running (the engines play)
  sessionRun: 0, // bumped when the page leaves a game: late answers for it (session steps,
  // positions, hints) are dropped
  picked: null, // a panel item picked: the move buttons are narrowed to its actions
  showFolded: false, // the moves the picture and panels play, also shown as buttons
  lineWish: null, // the hinted line to draw (the row under the pointer, else the best)
  lineBusy: false,
  current: null, // the game in play that is no puzzle (rolled, loaded): {options, start}
  keyboardPlay: false, // the last move was pressed on a focused button: focus the next one
  reviewSeconds: 60, // the whole review's budget (REVIEW_SECONDS; a test may set it)
  seed: 0, // the dice seed the game in play was started with (a saved record's)
};
window.table = table;

const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
const REVIEW_CHUNK = 6; // plies a ranged review request covers (each within the server's budget)
// "Review the game" has one whole budget, shared out over its ranged requests (each request's
// totalSeconds: the time left times its share of the plies left, counted by the server from its
// admission), with at least REVIEW_FLOOR seconds a ply (so it always ends, at most that much
// late). Each position is searched with the game's review setting (as `forest GAME review`);
// a position whose share ran out first is searched less, and labelled so.
const REVIEW_FLOOR = 0.05;
const REVIEW_STALLS = 3; // requests in a row that review nothing (each with 4x the floor): stop
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
// a chance step of a hint's line as the line shows it: one possible outcome, not a known one
// (the words of solver.render.ascii.CHANCE_STEP, which the command line prints)
function chanceStep(label) {
  return `(if ${label})`;
}

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
      const error = new Error(data.error || `HTTP ${response.status}`);
      error.code = data.code; // the server's error code (too_large, ...)
      error.limitSaid = response.headers.get("x-max-body-said"); // "1 MiB": the server's words
      throw error;
    }
    return data;
  } finally {
    table.busy -= 1;
  }
}

function base() {
  const body = { game: table.spec.name, options: table.options };
  if (table.start !== null) body.state = table.start;
  return body;
}

function request(extra) {
  return { ...base(), actions: table.actions.slice(0, table.cursor), ...extra };
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

// The largest Dice seed: the largest whole number a page's number holds exactly (the server
// takes larger ones; a record may carry one, and the field would then round it).
const SEED_MAX = Number.MAX_SAFE_INTEGER;

// A form field's whole number from `low` to `high` (`range` says them); null, with the error
// said in the form's words, for anything else. A number field holds "" for what is no number
// ("abc"), and flags what the browser could not read ("1e").
function wholeNumber(id, name, low, high, range) {
  const field = $(id);
  const given = field.value.trim();
  if (/^\d+$/.test(given) && Number(given) >= low && Number(given) <= high) return Number(given);
  const why = given ? `not "${given}"`
    : field.validity.badInput ? "not what was typed" : "the field is empty";
  showError(`${name}: a whole number ${range} (${why})`);
  return null;
}

// The Dice seed field's whole number, else null (said): the game is then neither started nor
// rolled (it was, with a seed the page made up: 0 for "abc" and for -1's dice a 32-bit wrap).
function diceSeed() {
  return wholeNumber("seed", "Dice seed", 0, SEED_MAX, `from 0 to ${SEED_MAX}`);
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
  $("panels").innerHTML = "";
  $("chance").hidden = true;
  $("outcomes").textContent = "";
  $("hint").disabled = true;
  $("status").dataset.state = "error";
  if (error && error.code === "too_many_sessions") { // no position failed: no game was started
    $("status").textContent = "No new game against the engines: the server is full.";
    // the server's words (when to retry), and what plays now: the analysis board keeps no
    // session on the server
    showError(`${error.message}. Meanwhile Seats: every seat here (the analysis board) plays `
      + "without one.");
    return;
  }
  $("status").textContent = "Error: the position could not be shown.";
  showError(error);
}

function fillSelect(select, values, label) {
  select.innerHTML = "";
  for (const value of values) {
    const option = document.createElement("option");
    option.value = String(value);
    option.textContent = label ? label(value) : String(value);
    select.appendChild(option);
  }
}

async function loadGames() {
  table.games = await api("/v1/games");
  fillSelect($("game"), table.games.map((g) => g.name),
    (name) => `${name}: ${table.games.find((g) => g.name === name).title}`);
  chooseGame();
}

const DEFAULT_SETUP = ""; // the puzzle select's value for the game's default set-up
const CURRENT = "\u0001current"; // its value for the game in play that is no puzzle

// The puzzle select names the game in play when it is no puzzle (a rolled instance, a loaded
// file), so it never shows a puzzle that is not on the table and New game starts this one again.
function showCurrent(label, options, start) {
  const puzzles = $("puzzle");
  let option = Array.from(puzzles.options).find((o) => o.value === CURRENT);
  if (!option) {
    option = document.createElement("option");
    option.value = CURRENT;
    puzzles.prepend(option);
  }
  option.textContent = label;
  puzzles.value = CURRENT;
  table.current = { options: { ...options }, start };
}

function chooseGame() {
  const spec = table.games.find((g) => g.name === $("game").value) || table.games[0];
  table.spec = spec;
  const puzzles = $("puzzle");
  puzzles.innerHTML = "";
  table.current = null;
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
  $("size").title = `WIDTHxHEIGHT (${Object.entries(spec.sizeRanges || {})
    .map(([name, [low, high]]) => `${name} ${low} to ${high}`).join(", ")})`;
  $("players-label").hidden = spec.players.length < 2;
  fillSelect($("players"), spec.players);
  // the game's own count, as every other surface starts it (not the smallest it allows)
  if (spec.players.includes(spec.defaultPlayers)) $("players").value = String(spec.defaultPlayers);
  fillChoices(spec);
  fillSelect($("agent"), spec.agents);
  if (spec.defaultAgent) $("agent").value = spec.defaultAgent;
  // hidden information: the server keeps the game by default, so the page never holds a
  // card hidden from the seat
  $("mode").value = spec.hiddenInformation ? "session" : "board";
  showMode();
}

// A game's own options that take a few values (a solo level, say): a list each, shown
// for the player counts the option applies to; a value other than the first (the default) is
// sent with the game's options.
function fillChoices(spec) {
  const box = $("choices");
  box.innerHTML = "";
  for (const choice of spec.choices || []) {
    const label = document.createElement("label");
    label.id = `choice-${choice.name}-label`;
    label.title = choice.help;
    label.append(`${choice.name[0].toUpperCase()}${choice.name.slice(1)} `);
    const select = document.createElement("select");
    select.id = `choice-${choice.name}`;
    select.dataset.testid = `choice-${choice.name}`;
    fillSelect(select, choice.values);
    select.addEventListener("change", () => newGame());
    label.appendChild(select);
    box.appendChild(label);
  }
  showChoices();
}

function playerCount() {
  const spec = table.spec;
  return spec.players.length > 1 ? Number($("players").value) : spec.players[0];
}

// The count a new game of `puzzle` is played by: the Players select's, or the puzzle's own where
// it cannot be played by that many (a solo-only position: 1), which the select then shows.
function puzzleCount(spec, puzzle) {
  const own = (spec.puzzlePlayers || {})[puzzle];
  const count = Number($("players").value);
  if (!own || own.includes(count)) return count;
  $("players").value = String(own[0]);
  showChoices();
  return own[0];
}

function showChoices() {
  for (const choice of table.spec.choices || []) {
    $(`choice-${choice.name}-label`).hidden =
      choice.players !== null && !choice.players.includes(playerCount());
  }
}

function chosenOptions() {
  const chosen = {};
  for (const choice of table.spec.choices || []) {
    const value = Number($(`choice-${choice.name}`).value);
    if (!$(`choice-${choice.name}-label`).hidden && value !== choice.values[0]) {
      chosen[choice.name] = value;
    }
  }
  return chosen;
}

function showMode() {
  const session = $("mode").value === "session";
  $("humans-label").hidden = $("agent-label").hidden = $("strength-label").hidden = !session;
}

function resetLine() {
  table.leftSession = false; // a new line is no session's game so far
  table.actions = [];
  table.line = [];
  table.cursor = 0;
  stopReview();
  table.review = null;
  showReviewDropped(""); // an earlier game's closing line is not this one's
  table.claims = null; // a loaded record's own finished, labels and returns: not this line's
  table.seat = 0; // a new game is viewed from player 0 (its seat count may differ)
  table.sessionRun += 1; // a session step still running belongs to the game left
  table.sessionBusy = false;
  cover(false);
  $("seat").value = "0";
}

async function newGame(event, rolled) {
  if (event) event.preventDefault();
  showError(null);
  const seed = diceSeed();
  if (seed === null) return; // the game in play stays
  const spec = table.spec;
  table.options = rolled ? { ...rolled } : {};
  table.start = null;
  const puzzle = $("puzzle").value;
  if (!rolled && puzzle === CURRENT && table.current) {
    table.options = { ...table.current.options };
    table.start = table.current.start;
  } else if (!rolled && spec.sourceOption && spec.puzzles.length && puzzle !== DEFAULT_SETUP) {
    table.options[spec.sourceOption] = puzzle;
  }
  if (spec.players.length > 1 && !rolled) { // a rolled instance is played at its own count
    table.options.players = puzzleCount(spec, puzzle);
  }
  if (!rolled && puzzle !== CURRENT) Object.assign(table.options, chosenOptions());
  table.seed = seed;
  table.rng = seeded(seed);
  resetLine();
  table.session = null;
  if ($("mode").value === "session") await startSession();
  else await refresh();
  if (rolled) showPlayedCount(); // the count it was rolled for
}

// Players shows the count the position is played by where the server chose it (a rolled
// instance, a loaded record or position without options.players: its file's or state's own).
function showPlayedCount() {
  if (!table.position || table.spec.players.length < 2) return;
  $("players").value = String(table.position.players);
  showChoices();
}

// -- a server-kept session ----------------------------------------------------------------------

function humanSeats() {
  const seats = $("humans").value.split(",").map((s) => s.trim()).filter((s) => s !== "")
    .map(Number);
  return seats.length ? seats : [0];
}

// The engines' agent: a level of the strength ladder when one is chosen, else the engine's.
function sessionAgent() {
  const level = $("strength").value;
  return level ? `level${level}` : $("agent").value || undefined;
}

async function startSession() {
  table.sessionAgent = sessionAgent();
  await sessionCall("/v1/table/start", {
    game: table.spec.name, options: table.options, humans: humanSeats(),
    agent: table.sessionAgent, seed: table.seed,
  });
}

// The seat's view as the board draws a position (no line, no saved state: the page holds
// nothing the seat cannot see).
function viewAsPosition(view) {
  const observed = view.observation ? JSON.stringify(view.observation, null, 1) : "";
  const text = view.text || `${view.informationState || ""}\n\n${observed}`.trim();
  return { game: view.game, players: view.players, currentPlayer: view.currentPlayer,
    terminal: view.terminal, chance: false, returns: view.returns, scores: view.scores,
    moves: view.moves, outcomes: [], actions: [], svg: view.svg, text, movePoints: {}, line: [],
    state: null,
    valueKind: view.valueKind, panels: view.panels || [], targets: view.targets || [],
    drawsLine: Boolean(view.drawsLine) };
}

// One session step at a time: a click while the engines play is ignored (the server would answer
// "busy"), and an answer for a game the page has left (a new game started) is dropped.
async function sessionCall(path, body) {
  if (table.sessionBusy) return;
  const run = table.sessionRun;
  table.sessionBusy = true;
  clearHint();
  $("status").textContent = body.session ? "The engine seats are playing..." : "Starting...";
  $("status").dataset.state = "waiting";
  $("hint").disabled = true; // a hint now would be of the position the engines are leaving
  let view;
  try {
    view = await api(path, body);
  } catch (error) {
    if (run === table.sessionRun) showFailure(error);
    return;
  } finally {
    if (run === table.sessionRun) table.sessionBusy = false;
  }
  if (run !== table.sessionRun) return;
  showError(null);
  const previous = table.session ? table.session.view.seat : view.seat;
  table.session = { id: view.session, view };
  // the view is the seat's to move (hot seat: each human seat's in turn): View from says so
  table.seat = view.seat;
  $("seat").value = String(view.seat);
  sessionLine(view);
  handOver(view, previous);
  table.position = viewAsPosition(view);
  draw();
  $("status").textContent += ` You play seat ${view.seat} (ply ${view.ply}).`;
  // what the step's time budget cut, in the server's words (a move chosen as time ran out)
  if (view.notes && view.notes.length) $("status").textContent += ` ${view.notes.join(" ")}`;
  if (view.terminal) await endSession();
  // the step's seconds ran out with an engine seat to move: the engines go on at the next view
  else if (view.enginePending) await sessionCall("/v1/table/view", { session: view.session });
}

// The move list of a session: what each step played (the human's move, chance, the engine
// seats') as the human seats may see it; a take back (nothing played, an earlier ply) drops the
// entries past the ply the game is at. The entries carry no action id (a hidden card's would
// name it): the list is read, not stepped through, until the game is over.
function sessionLine(view) {
  const played = view.played || [];
  const from = played.length ? played[0].ply : view.ply;
  table.line = table.line.slice(0, from).concat(
    played.map((entry) => ({ action: null, label: entry.label, player: entry.player })));
}

// The hot-seat cover shown or taken away. While it shows, the rest of the page is inert: no Tab
// reaches a move, a hint or the set-up behind it (the player who just moved could otherwise
// tab onto the next one's cards), and no click or key acts there.
function cover(shown) {
  $("hand-over").hidden = !shown;
  for (const behind of document.querySelectorAll("body > header, body > main")) {
    behind.inert = shown;
  }
}

// Hot seat (several human seats): when the view passes to another human seat the table is
// covered until that player asks for it, so the last player does not see the next one's cards.
function handOver(view, previous) {
  const passes = view.humans.length > 1 && view.seat !== previous && !view.terminal;
  cover(passes);
  if (passes) {
    $("hand-over-text").textContent = `Pass the device to player ${view.seat}.`;
    $("hand-over-show").focus(); // the cover's one button, for the keyboard too
  }
}

// The game is over: the record (every action) comes now, and the table becomes the analysis
// board of the whole game.
async function endSession() {
  let record;
  try {
    record = await api("/v1/table/record", { session: table.session.id });
  } catch (error) {
    showError(error);
    return;
  }
  await recordOnBoard(record);
}

// "Save the game" during a session: the record so far, saved as `play --record` saves a game
// left before its end ("finished": false). Where the game hides cards that record holds every
// seat's, so the server leaves the session and the table shows the game so far on the analysis
// board (asked first); otherwise the game goes on.
async function saveSessionRecord() {
  const session = table.session;
  if (!session || table.sessionBusy) return;
  const ends = table.spec.hiddenInformation && !session.view.terminal;
  if (ends && !window.confirm("The saved game holds every seat's cards, so saving it now ends "
    + "this game here: the table then shows the game so far on the analysis board. Save it?")) {
    return;
  }
  let record;
  try {
    record = await api("/v1/table/record", { session: session.id, unfinished: true });
  } catch (error) {
    showError(error);
    return;
  }
  download(`${table.spec.name}-game.json`, record);
  if (ends) await recordOnBoard(record);
}

// A session's record on the analysis board, seen from the seat played.
// Said under a game saved before its end (its session left): the status read "Player 0 to
// move." alone, and the engines no longer play the other seats (a new user's pass).
const LEFT_SESSION = "The game against the engines was left here when it was saved: this is the "
  + "analysis board of the game so far, where you play every seat.";

async function recordOnBoard(record) {
  const seat = table.session.view.seat;
  table.session = null;
  table.leftSession = record.finished === false;
  table.seat = seat; // the review is seen from the seat played
  $("seat").value = String(seat);
  table.options = record.options;
  table.actions = [...record.actions];
  table.line = [];
  table.cursor = table.actions.length;
  await refresh();
}

// What of a size (width, height) the game's generator does not roll, in the form's words, or
// null: `ranges` is the game's row's sizeRanges (name -> [low, high], the server's own limits).
// Every side out of range is named ("0x0": the width and the height), not the first alone.
function sizeRefused(ranges, size) {
  const out = Object.entries(ranges || {})
    .filter(([name, [low, high]]) => !(size[name] >= low && size[name] <= high))
    .map(([name, [low, high]]) => `the ${name} must be from ${low} to ${high}`);
  return out.length ? `${out.join(" and ")} for this game` : null;
}

async function rollNew() {
  showError(null);
  const seed = diceSeed();
  if (seed === null) return;
  const size = /^\s*(\d+)\s*x\s*(\d+)\s*$/i.exec($("size").value);
  if (!size) { // said in the form's words, not the request's ("width: Input should be ...")
    showError(`Size: write it as WIDTHxHEIGHT, like 6x6 (not "${$("size").value}")`);
    return;
  }
  const [width, height] = [Number(size[1]), Number(size[2])];
  const refused = sizeRefused(table.spec.sizeRanges, { width, height });
  if (refused) { // said before anything is asked, as the Dice seed is (it was the server's 400)
    showError(`Size: ${refused} (not "${$("size").value.trim()}")`);
    return;
  }
  let rolled;
  try {
    rolled = await api("/v1/roll", {
      game: table.spec.name, seed, width, height,
    });
  } catch (error) { // a size the game refuses (1x1, 100x100): said, and the game in play stays
    showError(error);
    return;
  }
  try {
    showCurrent(`rolled: ${rolled.source}`, rolled.options, null);
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

// -- the position at the cursor -----------------------------------------------------------------

// `explain`: what a failure says instead of the server's message (null: the server's).
async function refresh(explain) {
  clearHint();
  const cursor = table.cursor;
  const run = table.sessionRun;
  let position;
  try {
    // only the labels the page has not got (a label can cost the server a state's decoding)
    const labelsFrom = Math.min(table.line.length, cursor);
    position = await api("/v1/position", request({ seat: table.seat, labelsFrom }));
  } catch (error) {
    if (run === table.sessionRun) showFailure((explain && explain(error)) || error);
    return;
  }
  if (run !== table.sessionRun) return; // the page left this game (another game, a session)
  if (cursor !== table.cursor) return; // a later step asked for another ply meanwhile
  table.position = position;
  const from = position.lineFrom || 0;
  position.line.forEach((entry, index) => { table.line[from + index] = entry; });
  draw();
}

function fillSeats(count) {
  const select = $("seat");
  if (select.options.length !== count) {
    fillSelect(select, [...Array(count).keys()], (seat) => `player ${seat}`);
    select.value = String(Math.min(table.seat, count - 1));
    table.seat = Number(select.value);
  }
  $("seat-label").hidden = count < 2;
  // a session shows the server's view of one seat, the one to move: no other seat to choose
  select.disabled = Boolean(table.session);
  select.title = table.session ? "a game the server keeps is seen from the seat to move" : "";
}

function overText(returns, scores) {
  // who won, in words, with the game's own scores where it has them (VP, fame): the returns
  // alone read as jargon ("returns 0.00, 1.00") and said nothing of the score
  if (returns.length === 1) {
    const result = returns[0] >= 1 ? "won" : "lost";
    return scores ? `Game over: ${result} (score ${scores[0]}).` : `Game over: ${result}.`;
  }
  const best = Math.max(...returns);
  const first = returns.flatMap((value, seat) => (value === best ? [seat] : []));
  // a winner whose score another seat has too won on the game's tie-break (the picture says
  // which): "player 0 won (scores 0, 0)" read as a mistake
  const tied = scores && first.length === 1
    && scores.some((score, seat) => seat !== first[0] && score === scores[first[0]]);
  const who = first.length === returns.length ? "a tie"
    : first.length === 1 ? `player ${first[0]} won${tied ? " on the tie-break" : ""}`
    : `shared first place: players ${first.join(", ")}`;
  const said = scores ? `scores ${scores.join(", ")}`
    : `returns ${returns.map((r) => r.toFixed(2)).join(", ")}`;
  return `Game over: ${who} (${said}).`;
}

function draw() {
  const position = table.position;
  const board = $("board");
  board.innerHTML = position.svg || "";
  $("text-board").hidden = Boolean(position.svg);
  $("text-board").textContent = position.svg ? "" : position.text || "";
  const svg = board.querySelector("svg");
  if (svg) svg.addEventListener("click", onBoardClick);
  if (svg) markTargets(svg, position.targets || []);
  let status;
  if (position.terminal) {
    status = overText(position.returns || [], position.scores || null);
  } else if (position.chance) {
    status = "Chance: roll or draw.";
  } else {
    status = `Player ${position.currentPlayer} to move.`;
  }
  const total = table.actions.length;
  if (table.cursor < total) status += ` (ply ${table.cursor} of ${total}: viewing an earlier position)`;
  if (table.leftSession && !table.session) status += ` ${LEFT_SESSION}`;
  $("status").textContent = status;
  $("status").dataset.state = position.terminal ? "over" : position.chance ? "chance" : "decision";
  $("chance").hidden = !position.chance;
  $("outcomes").textContent = outcomesText(position.outcomes);
  table.picked = null;
  drawPanels();
  drawMoves();
  $("hint").disabled = position.terminal || position.seatMoves === false;
  fillSeats(position.players || 1);
  drawSteps();
  drawHistory();
  drawGraph();
  drawAccuracy();
  if (table.keyboardPlay && $("hand-over").hidden && focusNextPlay()) table.keyboardPlay = false;
}

// -- keyboard play --------------------------------------------------------------------------------

// A move, a roll or a panel item pressed is drawn away with the position it played (its button
// is replaced), and the focus fell back to the page's start: a keyboard player tabbed through
// the whole set-up form again before every move (17 Tabs a move). The focus goes
// to the next thing to press instead: the roll, else the first move, panel item or folded list.
function focusInPlay() {
  const active = document.activeElement;
  return Boolean(active && active.closest
    && active.closest("#moves, #chance, #panels, #hint-table"));
}

const NEXT_PLAY = ["#roll", "#moves > button[data-action]", "#moves details[open] > button",
  "#moves summary", "#panels button"]; // in this order; a hidden or disabled one is passed
function focusNextPlay() {
  for (const selector of NEXT_PLAY) {
    const next = [...document.querySelectorAll(selector)]
      .find((node) => node.offsetParent !== null && !node.disabled);
    if (next) {
      next.focus();
      return true;
    }
  }
  return false;
}

// A chance node's outcomes in a line: all of them when few, else how many, the likeliest few
// and the chance of the rest (a bag of 72 tiles is not a list to read).
const OUTCOMES_SHOWN = 6;
function outcomesText(outcomes) {
  const percent = (p) => `${(100 * p).toFixed(1)}%`;
  if (outcomes.length <= OUTCOMES_SHOWN + 2) {
    return outcomes.map((o) => `${o.label} (${percent(o.probability)})`).join(", ");
  }
  const likeliest = [...outcomes].sort((a, b) => b.probability - a.probability)
    .slice(0, OUTCOMES_SHOWN);
  const rest = 1 - likeliest.reduce((total, o) => total + o.probability, 0);
  return `${outcomes.length} outcomes: `
    + likeliest.map((o) => `${o.label} (${percent(o.probability)})`).join(", ")
    + `, and ${outcomes.length - OUTCOMES_SHOWN} more (${percent(Math.max(0, rest))})`;
}

// The game's panels (its declaration's table view): items with actions are buttons; one action
// plays it, several narrow the move buttons to them (pick a tile, then a cell).
function drawPanels() {
  const holder = $("panels");
  holder.innerHTML = "";
  for (const panel of table.position.panels || []) {
    const box = document.createElement("section");
    box.className = "panel";
    const title = document.createElement("h2");
    title.textContent = panel.title;
    box.appendChild(title);
    const list = document.createElement("ul");
    if (panel.columns) { // a grid (a store's slots): the items row by row
      list.className = "grid";
      list.style.gridTemplateColumns = `repeat(${panel.columns}, minmax(0, 1fr))`;
      box.classList.add("wide");
    }
    for (const item of panel.items) {
      const entry = document.createElement("li");
      const actions = item.actions || [];
      const node = document.createElement(actions.length ? "button" : "span");
      node.textContent = item.text;
      if (item.detail) node.title = item.detail;
      if (actions.length) {
        node.type = "button";
        node.className = "panel-item";
        node.dataset.actions = actions.join(",");
        node.addEventListener("click", () => pick(item, node));
      }
      entry.appendChild(node);
      if (item.detail) {
        const detail = document.createElement("small");
        detail.textContent = ` ${item.detail}`;
        entry.appendChild(detail);
      }
      list.appendChild(entry);
    }
    box.appendChild(list);
    holder.appendChild(box);
  }
}

// A clickable item (a panel's or the picture's) picks its actions: with a pick already made,
// the actions both share (a pool tile, then one of its cells); one action plays it, several
// narrow the move buttons to them and mark the picture's elements that lead on.
function pick(item, node) {
  let actions = item.actions;
  if (table.picked) {
    const both = actions.filter((a) => table.picked.includes(a));
    if (both.length) actions = both;
  }
  if (actions.length === 1) {
    play(actions[0]);
    return;
  }
  const same = table.picked && table.picked.join(",") === actions.join(",");
  table.picked = same ? null : [...actions];
  document.querySelectorAll(".panel-item.picked, #board .picked")
    .forEach((n) => n.classList.remove("picked"));
  if (!same && node) node.classList.add("picked");
  markCandidates();
  drawMoves();
}

// The picture's targets that share an action with the pick are candidates, the others dimmed.
function markCandidates() {
  for (const node of document.querySelectorAll("#board .target")) {
    const actions = node.dataset.actions.split(",").map(Number);
    const open = table.picked && !node.classList.contains("picked")
      && actions.some((a) => table.picked.includes(a));
    node.classList.toggle("candidate", Boolean(open));
    node.classList.toggle("dimmed", Boolean(table.picked) && !open
      && !node.classList.contains("picked"));
  }
}

function moveButton(move) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = move.label;
  button.dataset.action = String(move.action);
  button.addEventListener("click", () => play(move.action));
  return button;
}

// The move buttons: a pick's moves; else the moves nothing on the picture or in the panels
// plays, with the others folded away (the picture is the way to play them; the buttons stay as
// a fallback).
function drawMoves() {
  const position = table.position;
  const moves = $("moves");
  moves.innerHTML = "";
  if (table.picked) {
    const all = document.createElement("button");
    all.type = "button";
    all.className = "show-all";
    all.textContent = "all moves";
    all.addEventListener("click", () => {
      table.picked = null;
      drawPanels();
      document.querySelectorAll("#board .picked").forEach((n) => n.classList.remove("picked"));
      markCandidates();
      drawMoves();
    });
    moves.appendChild(all);
  }
  if (position.chance || position.terminal) return;
  if (position.seatMoves === false) { // the mover's moves name cards hidden from this seat
    moves.appendChild(viewFromMover(position.currentPlayer));
    return;
  }
  const covered = clickable();
  const folded = [];
  for (const move of position.moves) {
    if (table.picked && !table.picked.includes(move.action)) continue;
    if (!table.picked && covered.has(move.action)) folded.push(move);
    else moves.appendChild(moveButton(move));
  }
  if (folded.length) {
    const more = document.createElement("details");
    more.id = "more-moves";
    more.open = table.showFolded;
    more.addEventListener("toggle", () => { table.showFolded = more.open; });
    const summary = document.createElement("summary");
    const shown = folded.length < position.moves.length; // "more" only beside shown buttons
    summary.textContent = `${folded.length}${shown ? " more" : ""} `
      + `move${folded.length === 1 ? "" : "s"} (click the picture or a panel; or here as buttons)`;
    more.appendChild(summary);
    for (const move of folded) more.appendChild(moveButton(move));
    moves.appendChild(more);
  }
}

// In a game that hides cards the board shows one seat's view: the mover's moves are listed only
// from the mover's seat, so a button turns the board to it (hot seat on one screen).
function viewFromMover(mover) {
  const button = document.createElement("button");
  button.type = "button";
  button.id = "view-mover";
  button.dataset.testid = "view-mover";
  button.textContent = `view from player ${mover} to play (their moves name cards player `
    + `${table.seat} does not see)`;
  button.addEventListener("click", () => chooseSeat(mover));
  return button;
}

async function chooseSeat(seat) {
  table.seat = seat;
  $("seat").value = String(seat);
  drawGraph();
  if (!table.session) await refresh(); // the panels (and hidden moves) are the seat's
}

// The actions something on the picture or in the panels leads to.
function clickable() {
  const covered = new Set();
  for (const node of document.querySelectorAll("#board .target, #panels .panel-item")) {
    for (const action of node.dataset.actions.split(",")) covered.add(Number(action));
  }
  return covered;
}

// The game's clickable elements of its picture: each target names an attribute and its value;
// a click picks its actions (one plays it, several narrow the move buttons).
function markTargets(svg, targets) {
  if (positionIsOver()) return;
  for (const target of targets) {
    for (const node of svg.querySelectorAll(`[${target.attr}]`)) {
      if (node.getAttribute(target.attr) !== target.value) continue;
      node.classList.add("target");
      node.dataset.actions = target.actions.join(",");
      node.addEventListener("click", (event) => {
        event.stopPropagation();
        pick({ actions: target.actions }, node);
      });
    }
  }
}

function positionIsOver() {
  return !table.position || table.position.terminal || table.position.chance;
}

function drawSteps() {
  const stepped = ["first", "back", "forward", "last", "review", "save-record", "save-position"];
  if (table.session) { // the seat's own moves only: no line to step through until the end
    for (const id of stepped) {
      $(id).disabled = id !== "save-record";
      $(id).dataset.title = $(id).dataset.title ?? $(id).title; // the enabled button's own
      $(id).title = "once the game is over: the server keeps the game until then "
        + "(the other seats' cards stay hidden), then the table becomes the analysis board";
    }
    // the game so far can be saved at any time (what `forest GAME play --record` writes when a
    // game is left); where cards are hidden its record holds every seat's, so saving ends it
    $("save-record").title = table.spec.hiddenInformation
      ? "save the game so far: its record holds every seat's cards, so this ends the game here "
        + "(the table becomes the analysis board of the game so far)"
      : "save the game so far (the game goes on)";
    // a human seat's move to take back, or nothing: the server refuses a take back before one
    // ("no move of a human seat to take back"), and the refusal cleared the board
    const humans = table.session.view.humans || [];
    $("take-back").disabled = !table.line.some((entry) => humans.includes(entry.player));
    return;
  }
  for (const id of stepped) {
    if ($(id).dataset.title !== undefined) $(id).title = $(id).dataset.title;
  }
  $("save-record").disabled = $("save-position").disabled = false;
  const total = table.actions.length;
  $("first").disabled = $("back").disabled = table.cursor === 0;
  $("forward").disabled = $("last").disabled = table.cursor >= total;
  $("take-back").disabled = !table.line.some((entry) => entry.player >= 0);
  $("review").disabled = Boolean(table.review && table.review.running);
}

// -- moving along the line ----------------------------------------------------------------------

async function play(action) {
  if (!table.position) return;
  table.keyboardPlay = focusInPlay(); // read before the pressed button is drawn away
  if (table.session) {
    await sessionCall("/v1/table/move", { session: table.session.id, action });
    return;
  }
  const position = table.position;
  const label = [...position.moves, ...position.outcomes]
    .find((m) => m.action === action)?.label ?? String(action);
  const player = position.chance ? -1 : position.currentPlayer;
  cutLine(table.cursor); // a move played at an earlier ply replaces the rest of the line
  table.actions.push(action);
  table.line.push({ action, label, player });
  table.cursor = table.actions.length;
  await refresh();
}

// The line from `ply` on is dropped (and the review of the positions after it).
function cutLine(ply) {
  if (ply >= table.actions.length) return;
  table.actions = table.actions.slice(0, ply);
  table.line = table.line.slice(0, ply);
  if (table.review) {
    const running = table.review.running;
    stopReview();
    for (const key of Object.keys(table.review.curve)) if (Number(key) > ply) delete table.review.curve[key];
    for (const key of Object.keys(table.review.decisions)) if (Number(key) > ply) delete table.review.decisions[key];
    table.review.reviewed = Math.min(table.review.reviewed, ply);
    showReviewDropped(running ? `the review stopped at ply ${table.review.reviewed}: the line changed`
      : `reviewed up to ply ${ply}; the line changed after it (Review the game for its notes)`);
  }
}

async function goTo(ply) {
  const target = Math.max(0, Math.min(table.actions.length, ply));
  if (target === table.cursor && table.position) return;
  table.cursor = target;
  await refresh();
}

// Take back: the last decision of the line goes, with the chance outcomes after it (the rolls
// and draws before it stay, so the same roll can be played differently).
async function takeBack() {
  if (table.session) {
    await sessionCall("/v1/table/takeback", { session: table.session.id });
    return;
  }
  let index = table.line.length - 1;
  while (index >= 0 && table.line[index].player < 0) index -= 1;
  if (index < 0) return;
  cutLine(index);
  table.cursor = index;
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

function drawHistory() {
  const list = $("history");
  list.innerHTML = "";
  const decisions = table.review ? table.review.decisions : {};
  table.line.forEach((entry, index) => {
    const ply = index + 1;
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = entry.player < 0 ? "ply chance" : "ply";
    if (ply === (table.session ? table.line.length : table.cursor)) button.classList.add("current");
    button.dataset.ply = String(ply);
    // in the status line's words ("Player 0 to move"), not an abbreviation ("P0")
    const who = entry.player < 0 ? "chance" : `player ${entry.player}`;
    button.textContent = `${who}: ${entry.label}`;
    markEntry(button, decisions[ply]);
    if (table.session) button.disabled = true; // a session's line is stepped once it is over
    else button.addEventListener("click", () => goTo(ply));
    item.appendChild(button);
    list.appendChild(item);
  });
  const current = list.querySelector(".current");
  if (current && current.scrollIntoView) current.scrollIntoView({ block: "nearest" });
}

// A move-list entry's review marks, put anew: the mistake's mark, then the ~ of a position
// searched less (a decision not reviewed, or null, leaves neither).
function markEntry(button, decision) {
  for (const old of button.querySelectorAll(".mark, .short, .noise")) old.remove();
  delete button.dataset.mark;
  delete button.dataset.short;
  delete button.dataset.noise;
  // a loss within the search's noise: marked noise (not inaccurate), counted accurate; the command line's mark
  // column reads "noise" there, and the list said nothing (a new user's pass)
  if (decision && decision.withinNoise) {
    const noise = document.createElement("span");
    noise.className = "noise";
    noise.textContent = "≈";
    noise.title = `noise: the move played was ${(100 * decision.loss).toFixed(1)} points below `
      + `the best (${decision.bestLabel}) by the searches, less than their noise: not marked inaccurate, `
      + "counted accurate";
    button.appendChild(noise);
    button.dataset.noise = "";
  }
  if (decision && decision.mark) {
    const mark = document.createElement("span");
    mark.className = `mark ${decision.mark}`;
    mark.textContent = MARKS[decision.mark];
    mark.title = `${decision.mark}: ${(100 * decision.loss).toFixed(1)} points lost; `
      + `best ${decision.bestLabel}`;
    button.appendChild(mark);
    button.dataset.mark = decision.mark;
  }
  if (decision && searchedLess(decision, table.review.asked)) {
    const short = document.createElement("span");
    short.className = "short";
    short.textContent = "~";
    short.title = `searched ${decision.simulations} of ${table.review.asked} simulations `
      + "(the review's budget ran short here): a rougher estimate";
    button.appendChild(short);
    button.dataset.short = String(decision.simulations);
  }
}

// The move list's entries at `plies` marked from the review, the others left as they are: a
// review answer covers a few plies, and rebuilding the whole list after each (a long game has
// 700+ entries, ~120 answers) made the review quadratic, lost the focus and moved the scroll.
// The list is drawn whole where it does not hold the line's entries.
function markHistory(plies) {
  const list = $("history");
  if (list.children.length !== table.line.length) {
    drawHistory();
    return;
  }
  const current = list.querySelector(".current");
  const shown = current !== null && within(current, list); // kept in view if it was
  const decisions = table.review ? table.review.decisions : {};
  for (const ply of plies) {
    const button = list.children[ply - 1] && list.children[ply - 1].firstElementChild;
    if (button) markEntry(button, decisions[ply]);
  }
  if (shown && !within(current, list) && current.scrollIntoView) {
    current.scrollIntoView({ block: "nearest" }); // a mark wrapped a line above it
  }
}

// Whether `node` is wholly inside the scrolled `box`'s visible part.
function within(node, box) {
  const inner = node.getBoundingClientRect();
  const outer = box.getBoundingClientRect();
  return inner.top >= outer.top && inner.bottom <= outer.bottom;
}

function onKey(event) {
  if (!$("hand-over").hidden) return; // the table is covered: no stepping behind the cover
  const tag = event.target && event.target.tagName;
  if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
  const steps = { ArrowLeft: table.cursor - 1, ArrowRight: table.cursor + 1, Home: 0,
    End: table.actions.length };
  if (!(event.key in steps) || !table.position) return;
  event.preventDefault();
  goTo(steps[event.key]);
}

// -- the board: clicks and the hinted line ------------------------------------------------------

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

function clearLine() {
  document.querySelectorAll("#board .hint-path, #board .hint-dot, #board .hint-line")
    .forEach((node) => node.remove());
}

function drawPath(svg, points) {
  if (!points || points.length < 2 || points.some((p) => !p)) return;
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

// The hinted line on the picture: the game's own drawing (SVG elements, `pvSvg`) or a path
// through the points where the moves land (`pvPoints`).
function drawLine(answer) {
  const svg = $("board").querySelector("svg");
  if (!svg) return;
  clearLine();
  if (answer.pvSvg) {
    const parsed = new DOMParser().parseFromString(
      `<svg xmlns="${SVG_NS}"><g class="hint-line">${answer.pvSvg}</g></svg>`, "image/svg+xml");
    const layer = parsed.documentElement.firstElementChild;
    if (layer && parsed.getElementsByTagName("parsererror").length === 0) {
      svg.appendChild(document.importNode(layer, true));
    }
    return;
  }
  drawPath(svg, answer.pvPoints);
}

async function showLine(pv, cursor) {
  if (!table.position || !table.position.drawsLine || !pv.length) return;
  try {
    const line = table.session
      ? await api("/v1/table/line", { session: table.session.id, pv })
      : await api("/v1/position", request({ pv, seat: table.seat }));
    if (cursor === table.cursor) drawLine(line);
  } catch (error) {
    showError(error);
  }
}

// The line drawn follows the hint row under the pointer (the best move's otherwise): one
// request at a time, the latest wish wins.
async function followLine(pv) {
  table.lineWish = pv;
  if (table.lineBusy) return;
  table.lineBusy = true;
  try {
    let shown = null;
    while (table.lineWish && table.lineWish !== shown) {
      shown = table.lineWish;
      await showLine(shown, table.cursor);
    }
  } finally {
    table.lineBusy = false;
  }
}

// The form's "Hint simulations", a whole number of at least 1; null (and the error said in the
// form's words) otherwise: 0 ran 1000, -5 ran 1 and 1.5 came back as "limit.iterations: Input
// should be a valid integer" beside the last hint's answer, as if still current.
function hintSimulations() {
  return wholeNumber("iterations", "Hint simulations", 1, Infinity, "of at least 1");
}

// A search the server's cap cut short says so (limitApplied.capped): 99999999 asked ran the
// cap's 200000 with no word but the number beside the value. An exact answer ran no simulation.
function cappedNote(answer, asked) {
  const limit = answer.limitApplied;
  if (answer.rootInfo.exact || !limit || !(limit.capped || []).includes("iterations")) return [];
  return [`The server caps a search at ${limit.iterations} simulations (${asked} asked).`];
}

async function hint() {
  if (!table.position) return;
  showError(null);
  clearHint(); // an answer shown is the answer to this ask, or none
  const iterations = hintSimulations();
  if (iterations === null) return;
  const cursor = table.cursor;
  const run = table.sessionRun;
  let answer;
  try {
    answer = table.session
      ? await api("/v1/table/hint", { session: table.session.id, limit: { iterations }, top_k: 3 })
      : await api("/v1/hint", request({
        id: `web-${cursor}`, limit: { iterations }, top_k: 3, seed: 0,
      }));
  } catch (error) {
    if (run === table.sessionRun) showError(error);
    return;
  }
  if (run !== table.sessionRun || cursor !== table.cursor) return; // asked of another game
  table.lastHint = answer;
  const body = $("hint-table").querySelector("tbody");
  body.innerHTML = "";
  for (const move of answer.moveInfos) {
    const row = document.createElement("tr");
    row.dataset.action = String(move.action);
    row.title = "play this move";
    // a chance step of the line (a roll, a draw, a reveal) says it is one possible outcome:
    // the one the search followed, an assumption and not a prediction
    const line = move.pvLabels.map(
      (label, i) => (move.pvChance && move.pvChance[i] ? chanceStep(label) : label));
    // an exact value ran no simulation: a dash, not "0 visits" (as play --human's hint table shows it)
    const cells = [move.order + 1, move.label, move.value.toFixed(4),
      answer.rootInfo.exact ? "\u2014" : move.visits, line.join(" \u2192 ")];
    for (const cell of cells) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      row.appendChild(td);
    }
    row.addEventListener("click", () => play(move.action));
    row.addEventListener("mouseenter", () => followLine(move.pv));
    // from the keyboard too: Tab reaches each row (its line drawn, as under the pointer), and
    // Enter or Space plays it (a row was for the pointer only)
    row.tabIndex = 0;
    row.addEventListener("focus", () => followLine(move.pv));
    row.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      event.preventDefault();
      play(move.action);
    });
    body.appendChild(row);
  }
  $("hint-table").hidden = !answer.moveInfos.length;
  const root = answer.rootInfo;
  $("root-value").textContent = rootValueText(root);
  $("root-value").dataset.method = root.method;
  $("root-value").dataset.leaves = root.leaves || "";
  $("hint-notes").textContent = [...(answer.notes || []), ...cappedNote(answer, iterations)]
    .join(" ");
  if (answer.moveInfos.length) {
    $("hint-table").onmouseleave = () => followLine(answer.moveInfos[0].pv);
    await showLine(answer.moveInfos[0].pv, cursor);
  }
}

// What a hint's value is, in the answer's own words (rootInfo.valueLabel: exact, an estimate
// played to the end, or the heuristic's guess), then how it was found; an older server's answer
// without valueLabel says its kind and "estimate" where it is not exact.
function rootValueText(root) {
  const words = root.valueLabel || (root.exact ? `exact ${root.valueKind}`
    : `estimate of the ${root.valueKind}`);
  const how = root.exact ? ""
    : ` (${root.method === "ismcts" ? "ISMCTS" : "MCTS"}, ${root.visits} `
      + `simulation${root.visits === 1 ? "" : "s"})`;
  return `${words} for player ${root.player}${how}: ${root.value.toFixed(4)}`;
}

// -- the review: ranged requests filling the graph, marks, accuracy -----------------------------

function stopReview() {
  table.reviewRun += 1;
  if (table.review) table.review.running = false;
}

// Whether a reviewed decision was searched with fewer simulations than asked (its share of the
// whole budget ran out first): the server's rule (solver/review_notes.py).
function searchedLess(decision, asked) {
  if (!asked || decision.forced || decision.method === "exact") return false;
  return (decision.simulations || 0) < asked;
}

// One ranged request's seconds: its plies' share of the time left, at least the floor.
function reviewShare(began, from, to, total, stalls) {
  const left = Math.max(0, table.reviewSeconds - (performance.now() - began) / 1000);
  const floor = REVIEW_FLOOR * (to - from) * 4 ** stalls;
  return Math.max(floor, (left * (to - from)) / Math.max(1, total - from));
}

// The review's bar and line once its line changed or a game began: a running review's bar
// stayed up saying "reviewing plies 24-30 of 367...", a finished one's closing line (notes on
// a line no longer played) stayed beside the new line or game.
function showReviewDropped(words) {
  $("review-progress").hidden = true;
  $("review-status").textContent = words;
}

function showReviewProgress(state, began, text) {
  const spent = ((performance.now() - began) / 1000).toFixed(0);
  $("review-progress").hidden = !state.running;
  $("review-progress").max = Math.max(1, state.total);
  $("review-progress").value = state.reviewed;
  $("review-status").textContent = `${text} (${spent} s; budget ${table.reviewSeconds} s)`;
}

// The kinds of value a review met, each once, in the order met: each ranged request names only
// its own plies' kinds, so the last one alone (say "exact" near the end of a long game) would
// label a graph of estimates exact. A range valued by the finished game alone says "K at the
// game's end"; where another range said K of its positions, K covers the end's too (the
// server's rule within one answer): a graph of exact values says "exact" once.
const AT_THE_END = " at the game's end";
function mergedLabels(seen, more) {
  const kinds = (seen ? seen.split(" / ") : []);
  for (const kind of (more ? more.split(" / ") : [])) if (!kinds.includes(kind)) kinds.push(kind);
  const said = kinds.filter((kind) => !(kind.endsWith(AT_THE_END)
    && kinds.includes(kind.slice(0, -AT_THE_END.length))));
  return said.length ? said.join(" / ") : seen;
}

// The fields of a reviewed decision and of a curve point the server's closing notes read: the
// earlier answers go back with the last range (`earlier`), so its `wholeNotes` speak of the
// whole review (each answer's own notes speak of its six plies). False and absent fields are
// left out (a quarter of the bytes: docs/hint-engine.md). A body too large is answered without
// them.
const DECISION_FIELDS = ["ply", "player", "loss", "accuracy", "undecided", "forced", "method",
  "simulations", "searches", "withinNoise"];
const POINT_FIELDS = ["ply", "method", "values", "value", "player"];

function kept(item, fields) {
  const out = {};
  for (const key of fields) if (item[key] !== undefined && item[key] !== false) out[key] = item[key];
  return out;
}

function reviewedSoFar(state, from) {
  return {
    decisions: Object.values(state.decisions).filter((d) => d.ply <= from)
      .map((d) => kept(d, DECISION_FIELDS)),
    curve: Object.values(state.curve).filter((p) => p.ply < from).map((p) => kept(p, POINT_FIELDS)),
  };
}

// The review's closing words: what was reviewed, then the server's closing notes on the whole
// review (the decisions the estimates could not judge, a fall the marks do not judge, those
// searched less than asked), and where the move list's ~ marks are.
function reviewSummary(state) {
  const notes = state.wholeNotes === null
    ? ["its closing notes are left out (the whole review is larger than the server takes in "
      + "one request)"]
    : state.wholeNotes;
  const short = Object.values(state.decisions).some((d) => searchedLess(d, state.asked));
  const marked = short ? ["those searched less are marked ~ in the move list"] : [];
  return [`reviewed ${state.total} plies`, ...notes, ...marked].join("; ");
}

async function review() {
  if (!table.position) return;
  stopReview();
  const run = table.reviewRun;
  const total = table.actions.length;
  const hinted = hintSimulations();
  if (hinted === null) return;
  // the game's review setting (what `forest GAME review` gives a position), fewer if the hint's
  // are: a long game's every position at a hint's 2000 simulations took minutes
  const iterations = Math.min(hinted, table.spec.reviewIterations || hinted);
  const state = { curve: {}, decisions: {}, reviewed: 0, total, running: true, wholeNotes: [],
    asked: iterations };
  table.review = state;
  const began = performance.now();
  let from = 0;
  let stalls = 0;
  const unmarked = new Set(); // plies whose decisions came but are not yet marked in the list
  showError(null);
  drawSteps();
  // an earlier review's marks go: the list shows this review's as its answers come
  markHistory([...$("history").querySelectorAll("button[data-mark], button[data-short], "
    + "button[data-noise]")]
    .map((button) => Number(button.dataset.ply)));
  try {
    do {
      const to = Math.min(total, from + REVIEW_CHUNK);
      showReviewProgress(state, began, `reviewing plies ${from}-${to} of ${total}...`);
      const asked = {
        ...base(), id: `review-${from}`, actions: table.actions, fromPly: from, toPly: to,
        limit: { iterations }, totalSeconds: reviewShare(began, from, to, total, stalls),
      };
      // the last range takes the earlier answers back, for the whole review's closing notes
      if (to === total && from > 0) asked.earlier = reviewedSoFar(state, from);
      if (to === total) Object.assign(asked, claimsOfLine()); // a loaded record's own words
      let answer;
      try {
        answer = await api("/v1/review", asked);
      } catch (error) { // too large with them (a very long game): the range alone, no notes
        if (error.code !== "too_large" || !asked.earlier) throw error;
        delete asked.earlier;
        answer = await api("/v1/review", asked);
        answer.wholeNotes = null;
      }
      if (run !== table.reviewRun) return; // the line changed: this review is stale
      state.valueLabel = mergedLabels(state.valueLabel, answer.valueLabel);
      for (const point of answer.curve) state.curve[point.ply] = point;
      for (const decision of answer.decisions) {
        state.decisions[decision.ply] = decision;
        unmarked.add(decision.ply);
      }
      state.wholeNotes = answer.wholeNotes; // the last answer's speak of the whole review
      // the server's words for the accuracy table's caption (the command line's), from an answer
      // that judged every decision shown: the first range's, and the last's told of the earlier
      if (answer.accuracyTitle && (from === 0 || asked.earlier)) {
        state.accuracyTitle = answer.accuracyTitle;
      }
      if (answer.reviewed <= from && total > 0) {
        stalls += 1; // its share ran out before a ply: again with a larger floor
        if (stalls < REVIEW_STALLS) continue;
        throw new Error(`the review made no progress at ply ${from}: ${answer.notes.join(" ")}`);
      }
      stalls = 0;
      state.reviewed = answer.reviewed;
      from = answer.reviewed;
      markHistory(unmarked); // the entries this answer covers, not the whole list
      unmarked.clear();
      drawGraph();
      drawAccuracy();
    } while (from < total);
    state.running = false;
    showReviewProgress(state, began, reviewSummary(state));
  } catch (error) {
    if (run === table.reviewRun) {
      $("review-status").textContent = "the review stopped";
      showError(error);
    }
  } finally {
    if (run === table.reviewRun) {
      state.running = false;
      $("review-progress").hidden = true;
    }
    drawSteps();
  }
}

// A curve point's value from the chosen seat's view (null where it is not known).
function seatValue(point) {
  const seat = table.seat;
  if (point.values && point.values.length > seat) return point.values[seat];
  if (point.player === seat) return point.value;
  const players = table.position ? table.position.players : 1;
  if (players === 2 && table.spec.constantSum) return 1 - point.value;
  return null;
}

function drawAccuracy() {
  const body = $("accuracy").querySelector("tbody");
  body.innerHTML = "";
  const perPlayer = {};
  for (const decision of Object.values(table.review ? table.review.decisions : {})) {
    const row = perPlayer[decision.player] || (perPlayer[decision.player] = {
      sum: 0, moves: 0, inaccuracy: 0, mistake: 0, blunder: 0 });
    if (decision.accuracy !== null && decision.accuracy !== undefined) {
      row.sum += decision.accuracy;
      row.moves += 1;
    }
    if (decision.mark) row[decision.mark] += 1;
  }
  for (const [player, row] of Object.entries(perPlayer)) {
    const tr = document.createElement("tr");
    tr.dataset.player = player;
    const accuracy = row.moves ? (row.sum / row.moves).toFixed(1) : "-";
    for (const cell of [`player ${player}`, accuracy, row.moves, row.inaccuracy, row.mistake,
      row.blunder]) {
      const td = document.createElement("td");
      td.textContent = String(cell);
      tr.appendChild(td);
    }
    body.appendChild(tr);
  }
  const caption = $("accuracy").querySelector("caption");
  if (caption.dataset.plain === undefined) caption.dataset.plain = caption.textContent;
  const title = table.review && table.review.accuracyTitle;
  caption.textContent = title ? title[0].toUpperCase() + title.slice(1) : caption.dataset.plain;
  $("accuracy").hidden = !Object.keys(perPlayer).length;
}

const GRAPH = { width: 640, height: 140, pad: 14 };

function svgNode(name, attributes) {
  const node = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

function drawGraph() {
  const holder = $("graph");
  holder.innerHTML = "";
  const total = Math.max(1, table.actions.length);
  const { width, height, pad } = GRAPH;
  const x = (ply) => pad + (ply * (width - 2 * pad)) / total;
  const y = (value) => height - pad - value * (height - 2 * pad);
  const svg = svgNode("svg", { viewBox: `0 0 ${width} ${height}`, role: "img",
    "data-testid": "graph-svg" });
  const title = svgNode("title", {});
  const reviewed = table.review && table.review.valueLabel;
  const words = reviewed || (table.spec ? table.spec.valueKind : "value");
  title.textContent = `${words} along the game, `
    + `from player ${table.seat}'s view (click a ply)`;
  svg.appendChild(title);
  $("graph-caption").textContent = title.textContent; // seen without hovering the graph
  svg.appendChild(svgNode("rect", { x: pad, y: pad, width: width - 2 * pad,
    height: height - 2 * pad, class: "graph-frame" }));
  svg.appendChild(svgNode("line", { x1: pad, x2: width - pad, y1: y(0.5), y2: y(0.5),
    class: "graph-mid" }));
  for (const [value, text] of [[1, "1"], [0.5, "0.5"], [0, "0"]]) {
    const label = svgNode("text", { x: 2, y: y(value) + 3, class: "graph-label" });
    label.textContent = text;
    svg.appendChild(label);
  }
  const curve = table.review ? table.review.curve : {};
  const plies = Object.keys(curve).map(Number).sort((a, b) => a - b);
  let segment = [];
  const flush = () => {
    if (segment.length > 1) {
      svg.appendChild(svgNode("polyline", { class: "graph-line",
        points: segment.map(([px, py]) => `${px},${py}`).join(" ") }));
    }
    segment = [];
  };
  for (const ply of plies) {
    const value = seatValue(curve[ply]);
    if (value === null || value === undefined) { flush(); continue; }
    segment.push([x(ply), y(value)]);
    const decision = table.review.decisions[ply];
    const dot = svgNode("circle", { cx: x(ply), cy: y(value), r: decision && decision.mark ? 3.5 : 1.8,
      class: `graph-dot ${decision && decision.mark ? decision.mark : ""}`, "data-ply": ply });
    svg.appendChild(dot);
  }
  flush();
  svg.appendChild(svgNode("line", { x1: x(table.cursor), x2: x(table.cursor), y1: pad,
    y2: height - pad, class: "graph-cursor" }));
  svg.addEventListener("click", (event) => {
    const at = svgPoint(svg, event);
    goTo(Math.round(((at.x - pad) * total) / (width - 2 * pad)));
  });
  holder.appendChild(svg);
}

// -- records and positions: saved as JSON files, loaded back ------------------------------------

function download(name, data) {
  const blob = new Blob([JSON.stringify(data, null, 2) + "\n"], { type: "application/json" });
  const link = document.createElement("a");
  link.href = URL.createObjectURL(blob);
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

// A game record (the shape `forest GAME review` reads): the line from the set-up or the saved
// position it started from.
function saveRecord() {
  if (!table.spec) return;
  if (table.session) {
    saveSessionRecord();
    return;
  }
  const record = { game: table.spec.name, options: table.options,
    seed: table.seed, actions: table.actions,
    labels: table.line.map((entry) => entry.label) };
  if (table.start !== null) record.state = table.start;
  download(`${table.spec.name}-game.json`, record);
}

// A position: a record with no actions, starting from the position's state where the game shows
// it (never in a hidden-information game); otherwise the line up to the cursor.
function savePosition() {
  const position = table.position;
  if (!position) return;
  const record = { game: table.spec.name, options: table.options, seed: 0, actions: [] };
  if (position.state) {
    record.state = position.state;
  } else {
    if (table.start !== null) record.state = table.start;
    record.actions = table.actions.slice(0, table.cursor);
  }
  download(`${table.spec.name}-position.json`, record);
}

// What is wrong with a loaded record, in words (null: nothing): a game this server does not play
// is named, with the ones it plays ("a record is ... of a game this server plays" said neither).
function recordProblem(record) {
  const shape = 'a record is {"game", "options", "actions"}';
  if (!record || typeof record !== "object" || Array.isArray(record)) return `${shape}, not this`;
  if (typeof record.game !== "string") return `${shape}: it names no "game"`;
  if (!table.games.some((g) => g.name === record.game)) {
    const games = table.games.map((g) => g.name).join(", ");
    return `its game ${JSON.stringify(record.game)} is none this server plays (${games})`;
  }
  if (record.actions !== undefined && !Array.isArray(record.actions)) {
    return `${shape}: its "actions" is no list`;
  }
  return null;
}

// The first key of the JSON `text` that repeats one of its object's keys, with its path
// ("options.players"), or null. JSON.parse keeps the last value silently, as Python's parser
// did: the server refuses such a record (solver/json_objects.py), and so does Load, before it
// reads a game the file does not say. Strings are skipped whole; a key is a string followed
// by a colon inside an object.
function repeatedKey(text) {
  const open = []; // {keys: Set | null (an array), where: [...], child}
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      let next = end + 1;
      while (next < text.length && /\s/.test(text[next])) next += 1;
      const inner = open[open.length - 1];
      if (inner && inner.keys && text[next] === ":") {
        const key = JSON.parse(text.slice(at, end + 1));
        if (inner.keys.has(key)) return [...inner.where, key].join(".");
        inner.keys.add(key);
        inner.child = key;
      }
      at = end;
    } else if (char === "{" || char === "[") {
      const outer = open[open.length - 1];
      open.push({ keys: char === "{" ? new Set() : null,
        where: outer ? [...outer.where, outer.child] : [], child: 0 });
    } else if (char === "}" || char === "]") {
      open.pop();
    } else if (char === "," && open.length && !open[open.length - 1].keys) {
      open[open.length - 1].child += 1;
    }
  }
  return null;
}

async function loadFile(file) {
  showError(null);
  let record;
  const text = await file.text();
  try {
    record = JSON.parse(text);
  } catch (error) {
    showError(`${file.name}: not JSON (${error.message})`);
    return;
  }
  const repeated = repeatedKey(text);
  if (repeated !== null) {
    const key = repeated.split(".").pop();
    showError(`${file.name}: the key "${key}" is given twice in one object (at ${repeated})`);
    return;
  }
  const problem = recordProblem(record);
  if (problem) {
    showError(`${file.name}: ${problem}`);
    return;
  }
  $("game").value = record.game;
  chooseGame();
  $("mode").value = "board"; // a record holds every action: it is reviewed on the board
  showMode();
  table.session = null;
  table.options = record.options && typeof record.options === "object" ? record.options : {};
  if (table.options.players !== undefined) $("players").value = String(table.options.players);
  for (const choice of table.spec.choices || []) { // a record's level shows as chosen
    const value = table.options[choice.name];
    $(`choice-${choice.name}`).value = String(value === undefined ? choice.values[0] : value);
  }
  showChoices();
  const source = table.spec.sourceOption ? table.options[table.spec.sourceOption] : undefined;
  if (record.state === undefined && table.spec.puzzles.includes(source)) {
    $("puzzle").value = source; // a puzzle by its name
  } else if (record.state === undefined && source === undefined && table.spec.defaultSource) {
    $("puzzle").value = DEFAULT_SETUP;
  } else if (table.spec.puzzles.length) {
    showCurrent(`from ${file.name}`, table.options, record.state === undefined ? null : record.state);
  }
  // the record's seed, else the field's (refused as New game refuses it)
  const seed = Number.isInteger(record.seed) && record.seed >= 0 ? record.seed : diceSeed();
  if (seed === null) return;
  $("seed").value = String(seed);
  table.seed = seed;
  table.rng = seeded(seed);
  resetLine();
  table.start = record.state === undefined ? null : record.state;
  table.actions = [...(record.actions || [])];
  table.line = [];
  table.cursor = table.actions.length;
  await refresh((error) => tooLarge(file, error));
  if (table.position) table.actions = table.line.map((entry) => entry.action); // labels -> ids
  table.claims = recordClaims(record);
  showPlayedCount(); // a solo position's record shows 1, not the game's own 2
}

// What a loaded record says of itself (`finished`, `labels`, `returns`, those it has), with the
// actions it holds: its review sends them while the line is still those actions, so the
// server's closing notes say where the file disagrees with the replay, as `forest GAME review`
// says (the replay decides; the table shows the replay). Null for a record with none of them.
function recordClaims(record) {
  const said = {};
  for (const key of ["finished", "labels", "returns"]) {
    if (record[key] !== undefined) said[key] = record[key];
  }
  return Object.keys(said).length ? { said, actions: [...table.actions] } : null;
}

function claimsOfLine() {
  const claims = table.claims;
  if (!claims || claims.actions.length !== table.actions.length) return {};
  return claims.actions.every((action, at) => action === table.actions[at]) ? claims.said : {};
}

// A file's size in a reader's words: 1.3 MB, 800 kB (the server words its limit: 1 MiB).
function bytesInWords(bytes) {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return bytes >= 1e3 ? `${(bytes / 1e3).toFixed(0)} kB` : `${bytes} bytes`;
}

// A loaded record the server refused as too large ("the body is larger than 1048576 bytes"),
// said with the file's name, its size and the limit (the server's words, X-Max-Body-Said), and
// where a bigger record is reviewed;
// null for any other failure.
function tooLarge(file, error) {
  if (error.code !== "too_large") return null;
  const limit = error.limitSaid || "the server's limit";
  return `${file.name} is ${bytesInWords(file.size)}; the table loads records up to `
    + `${limit} (use forest ${table.spec.name} review for bigger ones)`;
}

// choosing a game starts it; choosing a player count starts the game's default set-up for it
$("game").addEventListener("change", () => { chooseGame(); newGame(); });
$("players").addEventListener("change", () => {
  if (table.spec.defaultSource) $("puzzle").value = DEFAULT_SETUP;
  showChoices();
  newGame();
});
$("puzzle").addEventListener("change", () => newGame());
$("setup").addEventListener("submit", newGame);
$("mode").addEventListener("change", () => { showMode(); newGame(); });
$("roll").addEventListener("click", roll);
$("hand-over-show").addEventListener("click", () => {
  cover(false);
  if (table.keyboardPlay && focusNextPlay()) table.keyboardPlay = false;
});
$("roll-new").addEventListener("click", rollNew);
$("hint").addEventListener("click", hint);
$("first").addEventListener("click", () => goTo(0));
$("back").addEventListener("click", () => goTo(table.cursor - 1));
$("forward").addEventListener("click", () => goTo(table.cursor + 1));
$("last").addEventListener("click", () => goTo(table.actions.length));
$("take-back").addEventListener("click", takeBack);
$("review").addEventListener("click", review);
$("zoom").addEventListener("click", () => {
  // a page-sized picture is small at a phone's width: zoomed, it scrolls inside its box
  const zoomed = $("board").classList.toggle("zoomed");
  $("zoom").setAttribute("aria-pressed", String(zoomed));
  $("zoom").textContent = zoomed ? "Fit the picture" : "Zoom the picture";
});
$("save-record").addEventListener("click", saveRecord);
$("save-position").addEventListener("click", savePosition);
$("seat").addEventListener("change", () => chooseSeat(Number($("seat").value)));
$("load").addEventListener("change", (event) => {
  const file = event.target.files && event.target.files[0];
  if (file) loadFile(file).finally(() => { event.target.value = ""; });
});
document.addEventListener("keydown", onKey);
loadGames().then(() => newGame()).catch(showFailure);
