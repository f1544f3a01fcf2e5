/* The page: one board on the server, its state pushed by Server-Sent Events.
 *
 * The server owns the game (rules, players, engines); this script shows its state and
 * sends what the person does.  Links: /?variant=international&fen=...&level=N
 * (also white=, black= as "human" or an engine name, movetime= in ms).
 */
"use strict";

const HEARTBEAT_MS = 10000;
const $ = (id) => document.getElementById(id);

const page = {
  info: null,        // GET /api/info
  id: null,          // board id
  state: null,       // last state shown
  version: -1,
  events: null,      // EventSource
  board: null,       // BoardView
  lastPdn: "",       // to rebuild the board if the server closed it
  recovering: false,
  disconnected: false,  // the event stream broke; cleared by the next state
  leaving: false,    // the page is going away: never open a board again
  noteShown: false,  // the message line holds a note (a corrected setting), not an error
  fenDraft: null,    // what the person typed in the FEN box, kept there until set or dropped
};

/* ------------------------------------------------------------------ server calls */

class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const UNREACHABLE = "The server cannot be reached (is draughts-web still running?)";

async function api(method, path, body) {
  const options = {method, headers: {}};
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  let text;
  try {
    response = await fetch(path, options);
    text = await response.text();
  } catch (error) {  // the browser's own words ("Failed to fetch") say nothing to a person
    throw new ApiError(0, UNREACHABLE);
  }
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (e) {
    data = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  }
  return data;
}

/* Actions go to the server one after the other, in the order the person made them: two
 * requests in flight at once (a quick change of two controls) could arrive in the other order,
 * and the older settings would win. */
let actQueue = Promise.resolve();

function act(action, body, onError) {
  const run = actQueue.then(() => actNow(action, body, onError));
  actQueue = run.catch(() => null);
  return run;
}

/* Actions by which the person puts another position on the board: the FEN box follows it
 * again (a FEN typed there and not set is dropped). */
const POSITION_ACTIONS = new Set(["move", "undo", "redo", "goto", "new", "fen", "pdn"]);

/* One action; its refusal goes to onError(text) when given, else to the message line. */
async function actNow(action, body, onError) {
  if (!page.id) return null;
  try {
    const data = await api("POST", `/api/boards/${page.id}/${action}`, body || {});
    if (!page.noteShown) showMessage("");  // an error is over; a note stays until replaced
    if (data && data.state) showState(data.state);
    if (POSITION_ACTIONS.has(action)) dropFenDraft();
    return data;
  } catch (error) {
    if (error.status === 404) {
      recover();
    } else if (onError) {
      onError(error.message);
    } else {
      showMessage(error.message);
    }
    return null;
  }
}

/* ------------------------------------------------------------------ the FEN box */

/* The FEN box shows the current position, except while the person's own text is in it:
 * being typed, or refused by Set position (then with the reason under it, so that it can be
 * corrected). Escape, or a position set another way, puts the current position back. */
function showFenError(text) {
  const box = $("txt-fen");
  $("fen-error").textContent = text || "";
  box.classList.toggle("invalid", Boolean(text));
  if (text) box.setAttribute("aria-invalid", "true");
  else box.removeAttribute("aria-invalid");
}

function dropFenDraft() {
  page.fenDraft = null;
  showFenError("");
  if (page.state) $("txt-fen").value = page.state.fen;
}

function setFen() {
  const text = $("txt-fen").value;
  page.fenDraft = text;
  act("fen", {fen: text}, (error) => {
    if (page.fenDraft === text) showFenError(error);
  });
}

function showMessage(text) {
  $("message").textContent = text || "";
  page.noteShown = false;
}

/* A note (a setting corrected) stays shown after the actions that follow succeed, until the
 * setting is edited or another message replaces it. */
function showNote(text) {
  showMessage(text);
  page.noteShown = true;
}

/* ------------------------------------------------------------------ the board's life */

function settingsFromUrl() {
  const params = new URLSearchParams(window.location.search);
  const out = {};
  for (const key of ["variant", "fen", "white", "black", "clock"]) {
    if (params.get(key)) out[key] = params.get(key);
  }
  for (const key of ["level", "movetime"]) {
    const value = params.get(key);
    if (value && /^\d+$/.test(value)) out[key] = Number(value);
  }
  const moves = params.get("moves");
  if (moves !== null && moves.length <= MAX_LINK) {  // a shared game: its moves as PDN
    const start = params.get("start");
    out.pdn = (start ? `[SetUp "1"]\n[FEN "${start.replace(/["\\]/g, "")}"]\n` : "") + moves + " *";
    delete out.fen;
    const ply = params.get("ply");
    if (ply && /^\d+$/.test(ply)) page.linkPly = Number(ply);
  }
  return out;
}

async function openBoard(settings) {
  const data = await api("POST", "/api/boards", settings);
  page.id = data.id;
  page.version = -1;
  showState(data.state);
  listen();
  if (page.linkPly !== undefined && page.linkPly !== null) {
    const ply = page.linkPly;
    page.linkPly = null;
    if (ply < data.state.ply) act("goto", {ply});
  }
}

function listen() {
  if (page.events) page.events.close();
  const events = new EventSource(`/api/boards/${page.id}/events`);
  page.events = events;
  events.addEventListener("state", (e) => {
    if (page.disconnected) {
      page.disconnected = false;
      showMessage("");
    }
    showState(JSON.parse(e.data));
  });
  /* The stream broke (the server stopped, or restarted and forgot the board): say so at
   * once, whatever the board showed last; the browser retries, or we open a new board. */
  events.addEventListener("error", () => {
    if (page.leaving || page.events !== events) return;
    page.disconnected = true;
    $("status").textContent = "Disconnected";
    showMessage(`${UNREACHABLE}; trying again…`);
    if (events.readyState === EventSource.CLOSED) recover();
  });
  events.addEventListener("closed", () => {
    events.close();
    recover();
  });
}

/* The server closed our board (timeout, restart): open a new one with the same game. */
async function recover() {
  if (page.recovering || page.leaving) return;
  page.recovering = true;
  if (page.events) page.events.close();
  showMessage("The server closed this board; opening a new one with the same game…");
  try {
    await openBoard(Object.assign(currentSettings(), page.lastPdn ? {pdn: page.lastPdn} : {}));
    showMessage("");
  } catch (error) {
    $("status").textContent = "Disconnected";
    showMessage(error.status === 0 ? `${UNREACHABLE}. Reload the page to try again.`
      : `Cannot open a new board: ${error.message}. Reload the page to try again.`);
  } finally {
    page.recovering = false;
  }
}

function heartbeat() {
  if (page.id && !page.recovering && !page.leaving) {
    api("POST", `/api/boards/${page.id}/heartbeat`, {}).catch((error) => {
      if (error.status === 404) recover();
    });
  }
}

/* ------------------------------------------------------------------ showing the state */

function scoreText(analysis) {
  if (analysis.mate !== null && analysis.mate !== undefined) {
    return (analysis.mate > 0 ? "+" : "-") + "#" + Math.abs(analysis.mate);
  }
  if (analysis.score_cp === null || analysis.score_cp === undefined) return "?";
  const value = analysis.score_cp / 100;
  return (value > 0 ? "+" : "") + value.toFixed(2);
}

function speedText(nps) {
  if (nps === null || nps === undefined) return "";
  if (nps >= 1e6) return (nps / 1e6).toFixed(1) + " MN/s";
  if (nps >= 1e3) return (nps / 1e3).toFixed(1) + " kN/s";
  return nps + " N/s";
}

function hintText(hint) {
  return hint.move === null ? `Hint: no move, ${hint.none}.` : `Hint: ${hint.move}.`;
}

function analysisText(state) {
  const a = state.analysis;
  if (!a) {
    if (state.hint) return hintText(state.hint);
    return "No analysis yet.";
  }
  if (a.kind === "final") {  // a finished game's last position: its result is its value
    return (state.hint ? hintText(state.hint) + " " : "") + `Final position: ${a.result} (${a.reason}).`;
  }
  const parts = [];
  if (a.engine) parts.push(a.engine + (!a.running ? "" : a.kind === "analyse" ? " analysing" : " thinking"));
  if (a.depth !== null && a.depth !== undefined) parts.push(`depth ${a.depth}`);
  parts.push(`score ${scoreText(a)} (White)`);
  if (a.nps) parts.push(speedText(a.nps));
  if (a.nodes !== null && a.nodes !== undefined) parts.push(`${a.nodes} nodes`);
  let text = parts.join(" · ");
  if (a.pv && a.pv.length) text += ` — ${a.pv.join(" ")}`;
  if (state.hint) text = hintText(state.hint) + " " + text;
  return text;
}

/* Played moves go in #moves (a person or a test reads the game there); moves that redo
 * would replay go in #moves-ahead. Both are clickable: go to the position after a move. */
function renderMoves(state) {
  const handlers = {
    node: (id) => act("node", {node: id}),
    promote: (id) => act("promote", {node: id}),
    remove: (id) => act("delete", {node: id}),
  };
  const line = state.line || [];
  fillLine($("moves"), line.slice(0, state.ply), state.ply, handlers);
  fillLine($("moves-ahead"), line.slice(state.ply), state.ply, handlers);
  $("moves-ahead-box").hidden = state.ply >= line.length;
  keepCurrentInView($("moves"));
}

const MAX_LINK = 2000;  /* characters of a share link; a longer game is shared by its position */

function svgHref(state) {
  return "/api/svg?" + new URLSearchParams({variant: state.variant, fen: state.fen}).toString();
}

/* The link that opens this game at this move: the moves (and the start position, if not the
 * usual one) in the URL; a game too long for a link is shared by its position only. */
function shareUrl(state) {
  const params = new URLSearchParams({variant: state.variant});
  if (state.start_fen) params.set("start", state.start_fen);
  params.set("moves", (state.line || []).map((m) => m.text).join(" "));
  params.set("ply", String(state.ply));
  let url = `${window.location.origin}/?${params.toString()}`;
  if (url.length > MAX_LINK) {
    url = `${window.location.origin}/?` + new URLSearchParams({variant: state.variant, fen: state.fen}).toString();
  }
  return url;
}

function showShareLinks(state) {
  $("export-svg").href = svgHref(state);
  $("share-link").href = shareUrl(state);
}

function exportPng() {
  if (!page.state) return;
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = image.naturalWidth || 480;
    canvas.height = image.naturalHeight || 480;
    canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
    canvas.toBlob((blob) => {
      if (!blob) return;
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = "position.png";
      document.body.appendChild(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    }, "image/png");
  };
  image.onerror = () => showMessage("Cannot draw the picture.");
  image.src = svgHref(page.state);
}

function clockText(ms) {
  const left = Math.max(0, ms);
  const minutes = Math.floor(left / 60000);
  const seconds = Math.floor((left % 60000) / 1000);
  if (left < 10000) return `0:0${(left / 1000).toFixed(1)}`;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

/* #clock-white and #clock-black: the server's clocks, the running one counted down here
 * between two states (data-ms: the milliseconds left as shown). */
function showClocks() {
  const state = page.state;
  const clock = state ? state.clock : null;
  for (const side of ["white", "black"]) {
    const el = $(`clock-${side}`);
    el.hidden = !clock;
    $(`clock-row-${side}`).hidden = !clock;
    if (!clock) continue;
    let ms = clock[`${side}_ms`];
    if (clock.running === side) ms -= performance.now() - page.clockAt;
    ms = Math.max(0, Math.round(ms));
    el.textContent = clockText(ms);
    el.setAttribute("data-ms", String(ms));
    el.classList.toggle("running", clock.running === side);
    el.classList.toggle("low", ms < 10000);
    el.classList.toggle("fallen", ms === 0);
  }
}

/* Go to the position after a move of the line shown (the graph, the arrow keys). */
function goToPly(ply) {
  if (!page.state) return;
  const line = page.state.line || [];
  if (ply < 0 || ply > line.length || ply === page.state.ply) return;
  act("goto", {ply});
}

/* Scroll the move list (not the page) so that its current move shows. #moves is positioned,
 * so a move's offsetTop is measured inside the list's content. */
function keepCurrentInView(list) {
  const current = list.querySelector(".current");
  if (!current) {
    list.scrollTop = 0;
    return;
  }
  const top = current.offsetTop;
  const bottom = top + current.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}

function fillMoveList(list, moves, firstPly, currentPly) {
  list.textContent = "";
  let item = null;
  moves.forEach(([label, text], index) => {
    const ply = firstPly + index + 1;
    if (item === null || !label.endsWith("...")) {
      item = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = label;
      item.appendChild(num);
      list.appendChild(item);
    }
    const span = document.createElement("span");
    span.className = "ply";
    if (ply === currentPly) span.classList.add("current");
    span.setAttribute("data-ply", String(ply));
    span.textContent = text;
    span.title = "Go to the position after this move";
    span.addEventListener("click", () => act("goto", {ply}));
    item.appendChild(document.createTextNode(" "));
    item.appendChild(span);
  });
}

/* The arrows of the analysis lines (best first), while the analysis shows several. */
function analysisArrows(state) {
  const a = state.analysis;
  if (!a || !a.running || !a.lines || a.lines.length < 2) return null;
  return a.lines.map((line) => line.arrow).filter((arrow) => arrow);
}

/* #lines: one element per analysis line (data-line), its score and moves. */
function showLines(state) {
  const list = $("lines");
  const a = state.analysis;
  list.textContent = "";
  const lines = a && a.lines && a.lines.length > 1 ? a.lines : [];
  for (const line of lines) {
    const item = document.createElement("li");
    item.setAttribute("data-line", String(line.line));
    const score = document.createElement("span");
    score.className = "line-score";
    score.textContent = scoreLabel({cp: line.score_cp, mate: line.mate});
    item.appendChild(score);
    item.appendChild(document.createTextNode(" " + line.pv.join(" ")));
    list.appendChild(item);
  }
  list.hidden = lines.length === 0;
  if (document.activeElement !== $("sel-lines")) $("sel-lines").value = String(state.lines || 1);
}

function playerValue(player) {
  return player.type === "engine" ? "engine:" + player.engine : "human";
}

function showState(state) {
  if (!state || state.id !== page.id || state.version <= page.version) return;
  page.version = state.version;
  page.state = state;
  page.lastPdn = state.pdn || page.lastPdn;
  page.board.show({
    size: state.size,
    cells: state.cells,
    names: state.names,
    pieces: state.pieces,
    legal: state.legal,
    last: state.last,
    arrow: state.analysis && state.analysis.arrow ? state.analysis.arrow
      : (state.hint ? state.hint.arrow : null),
    arrows: analysisArrows(state),
  });
  showLines(state);
  // Each square shows its number, or its name where the variant writes names (c3).
  $("lbl-numbers").textContent = state.names ? "Square names" : "Numbers";
  if (state.message) showMessage(state.message);
  $("status").textContent = state.status;
  $("status").className = state.result ? "over" : "";
  $("analysis").textContent = analysisText(state);
  $("result").textContent = state.result ? `${state.result.score} — ${state.result.reason}` : "";
  renderMoves(state);
  showEvalBar(state);
  showEvalGraph(state, (move) => act("node", {node: move.id}));
  showReview(state);
  showShareLinks(state);
  $("opening").textContent = state.opening || "";
  page.clockAt = performance.now();
  showClocks();
  if (document.activeElement !== $("txt-clock")) $("txt-clock").value = state.time_control || "";
  if (document.activeElement !== $("num-elo")) $("num-elo").value = state.elo ? String(state.elo) : "";
  if (document.activeElement !== $("txt-fen") && page.fenDraft === null) $("txt-fen").value = state.fen;
  setSelect("sel-variant", state.variant);
  setSelect("sel-white", playerValue(state.players.white));
  setSelect("sel-black", playerValue(state.players.black));
  if (state.limit.level !== null && state.limit.level !== undefined) {
    $("rad-level").checked = true;
    setSelect("sel-level", String(state.limit.level));
  } else if (state.limit.movetime_ms) {
    $("rad-movetime").checked = true;
    if (document.activeElement !== $("num-movetime")) {
      $("num-movetime").value = String(state.limit.movetime_ms / 1000);
    }
  }
  if (document.activeElement !== $("rng-delay")) $("rng-delay").value = String(state.delay_ms);
  $("out-delay").textContent = (state.delay_ms / 1000).toFixed(1) + " s";
  // Stop stays usable between two engines' moves (the delay), not only while one thinks.
  const busy = state.thinking || state.analysing || state.playing;
  $("btn-undo").disabled = !state.can_undo;  // e.g. an engine's first move: no turn of yours before
  $("btn-redo").disabled = state.ply >= state.moves.length;
  const reviewing = Boolean(state.review && state.review.running);
  $("btn-stop").disabled = !busy && !reviewing;
  $("review-stop").disabled = !reviewing;
  $("analyse-game").disabled = reviewing || Boolean(state.thinking);
  $("btn-movenow").disabled = Boolean(state.result) || (!state.thinking && !state.analysing);
  $("btn-go").disabled = Boolean(state.result) || Boolean(state.thinking);
  $("btn-go").textContent = state.paused ? "Resume" : "Engine move";
  // Analyse and Hint work on a finished game too: its last position has a value (Hint then
  // says there is no move).
  $("btn-analyse").disabled = Boolean(state.thinking);
  $("btn-analyse").classList.toggle("active", Boolean(state.analysing));
  $("btn-hint").disabled = Boolean(busy);
}

function setSelect(id, value) {
  const select = $(id);
  if (document.activeElement === select) return;
  if ([...select.options].some((o) => o.value === value)) select.value = value;
}

/* ------------------------------------------------------------------ controls */

function currentSettings() {
  const out = {
    variant: $("sel-variant").value,
    white: $("sel-white").value,
    black: $("sel-black").value,
    delay_ms: Number($("rng-delay").value),
    clock: $("txt-clock").value.trim(),
    elo: $("num-elo").value.trim() === "" ? 0 : Math.round(Number($("num-elo").value)) || 0,
  };
  if ($("rad-level").checked) {
    out.level = Number($("sel-level").value);
  } else {
    const field = $("num-movetime");
    let seconds = Number(field.value);
    if (field.value.trim() === "" || !Number.isFinite(seconds) || seconds < 0.1 || seconds > 600) {
      // The field's own range (0.1-600 s): a value outside it is shown corrected, not hidden.
      seconds = Number.isFinite(seconds) && seconds > 600 ? 600 : (seconds >= 0.1 ? seconds : 1);
      field.value = String(seconds);
      showNote(`Seconds per move: a number from 0.1 to 600; using ${seconds}.`);
    }
    out.movetime = Math.round(seconds * 1000);
  }
  return out;
}

/* The settings of a new game in the variant chosen from the menu: a person who played the
 * side that moves first against an engine goes on playing the side that moves first (White in
 * International, Black in English checkers). */
function variantSettings() {
  const settings = currentSettings();
  const first = (page.info && page.info.first_to_move) || {};
  const before = page.state ? first[page.state.variant] : undefined;
  const after = first[settings.variant];
  const humans = ["white", "black"].filter((side) => settings[side] === "human");
  if (before && after && before !== after && humans.length === 1 && humans[0] === before) {
    [settings.white, settings.black] = [settings.black, settings.white];
  }
  return settings;
}

function playersBody() {
  const s = currentSettings();
  delete s.variant;
  return s;
}

function fillControls(info) {
  const variant = $("sel-variant");
  for (const name of info.variants) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = name[0].toUpperCase() + name.slice(1);
    variant.appendChild(option);
  }
  for (const id of ["sel-white", "sel-black"]) {
    const select = $(id);
    const human = document.createElement("option");
    human.value = "human";
    human.textContent = "Human";
    select.appendChild(human);
    for (const name of info.engines) {
      const option = document.createElement("option");
      option.value = "engine:" + name;
      option.textContent = "Engine: " + name;
      select.appendChild(option);
    }
  }
  // Until the board's state comes: the link's variant, and its players by default
  const wanted = settingsFromUrl();
  setSelect("sel-variant", wanted.variant || "international");
  const first = (info.first_to_move || {})[$("sel-variant").value] || "white";
  for (const side of ["white", "black"]) {
    const value = wanted[side] || (side === first ? "human" : "engine");
    setSelect(`sel-${side}`, value === "engine" ? "engine:" + info.default_engine
      : value.startsWith("engine:") || value === "human" ? value : "engine:" + value);
  }
  const level = $("sel-level");
  for (let n = info.levels.min; n <= info.levels.max; n += 1) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    level.appendChild(option);
  }
  level.value = String(info.levels.default);
  $("txt-clock").value = wanted.clock || "";
  const depth = $("review-depth");
  for (let n = 1; n <= (info.review ? info.review.max_depth : 12); n += 1) {
    const option = document.createElement("option");
    option.value = String(n);
    option.textContent = String(n);
    depth.appendChild(option);
  }
  depth.value = String(info.review ? info.review.default_depth : 6);
  if (info.elo) {  // the engine's rating range (UCI_Elo)
    $("num-elo").min = String(info.elo.min);
    $("num-elo").max = String(info.elo.max);
  }
}

function copyText(text, what) {
  const done = () => showMessage(`${what} copied.`);
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(done, () => showMessage(text));
  } else {
    showMessage(text);
  }
}

function download(name, text) {
  const blob = new Blob([text], {type: "application/x-draughts-pdn"});
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

function wireControls() {
  $("btn-undo").addEventListener("click", () => act("undo"));
  $("export-png").addEventListener("click", exportPng);
  $("sel-lines").addEventListener("change", () => act("lines", {count: Number($("sel-lines").value)}));
  $("analyse-game").addEventListener("click", () => act("review", {depth: Number($("review-depth").value)}));
  $("review-stop").addEventListener("click", () => act("stop"));
  document.addEventListener("keydown", (e) => {
    const target = e.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    if (!page.state) return;
    const ply = page.state.ply;
    const last = (page.state.line || []).length;
    const wanted = {ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: last}[e.key];
    if (wanted === undefined) return;
    e.preventDefault();
    goToPly(wanted);
  });
  $("btn-redo").addEventListener("click", () => act("redo"));
  $("btn-flip").addEventListener("click", () => {
    page.board.setFlipped(!page.board.flipped);
    $("board-area").classList.toggle("flipped", page.board.flipped);
  });
  $("chk-numbers").addEventListener("change", (e) => page.board.setNumbers(e.target.checked));
  $("btn-go").addEventListener("click", () => act("go"));
  $("btn-movenow").addEventListener("click", () => act("movenow"));
  $("btn-stop").addEventListener("click", () => act("stop"));
  $("btn-analyse").addEventListener("click", () => act("analyse", {
    on: !(page.state && page.state.analysing)}));
  $("btn-hint").addEventListener("click", () => act("hint"));
  $("btn-new").addEventListener("click", () => act("new", currentSettings()));
  $("sel-variant").addEventListener("change", () => act("new", variantSettings()));
  for (const id of ["sel-white", "sel-black", "sel-level", "rad-level", "rad-movetime",
                    "num-movetime", "rng-delay", "txt-clock", "num-elo"]) {
    $(id).addEventListener("change", () => act("players", playersBody()));
  }
  for (const id of ["num-movetime", "rad-level", "rad-movetime"]) {
    $(id).addEventListener("input", () => { if (page.noteShown) showMessage(""); });
  }
  $("rng-delay").addEventListener("input", () => {
    $("out-delay").textContent = (Number($("rng-delay").value) / 1000).toFixed(1) + " s";
  });
  $("btn-setfen").addEventListener("click", setFen);
  $("txt-fen").addEventListener("keydown", (e) => {
    if (e.key === "Enter") setFen();
    if (e.key === "Escape") dropFenDraft();
  });
  $("txt-fen").addEventListener("input", () => {
    page.fenDraft = $("txt-fen").value;
    showFenError("");
  });
  $("btn-copyfen").addEventListener("click", () => copyText(page.state ? page.state.fen : "", "FEN"));
  $("btn-link").addEventListener("click", () => {
    if (!page.state) return;
    const params = new URLSearchParams({variant: page.state.variant, fen: page.state.fen});
    if (page.state.limit.level !== null && page.state.limit.level !== undefined) {
      params.set("level", String(page.state.limit.level));
    }
    const url = `${window.location.origin}/?${params.toString()}`;
    window.history.replaceState(null, "", url);
    copyText(url, "Link");
  });
  $("btn-loadpdn").addEventListener("click", () => act("pdn", {pdn: $("txt-pdn").value}));
  $("file-pdn").addEventListener("change", (e) => {
    const file = e.target.files && e.target.files[0];
    if (!file) return;
    if (file.size > page.info.max_body / 2) {
      showMessage(`${file.name} is too large (${file.size} bytes).`);
      return;
    }
    file.text().then((text) => {
      $("txt-pdn").value = text;
      act("pdn", {pdn: text});
    });
    e.target.value = "";
  });
  $("btn-savepdn").addEventListener("click", async () => {
    try {
      const response = await fetch(`/api/boards/${page.id}/pdn`);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const text = await response.text();
      $("txt-pdn").value = text;
      download(`${page.state ? page.state.variant : "game"}.pdn`, text);
    } catch (error) {
      showMessage(`Cannot save: ${error.message}`);
    }
  });
  /* A navigation away may break the event stream before "pagehide" comes: from here on that is
   * not a reason to open a new board (which nobody would close). */
  window.addEventListener("beforeunload", () => { page.leaving = true; });
  window.addEventListener("pagehide", () => {
    page.leaving = true;
    if (page.events) page.events.close();
    if (!page.id) return;
    fetch(`/api/boards/${page.id}/close`, {method: "POST", keepalive: true,
      headers: {"Content-Type": "application/json"}, body: "{}"}).catch(() => {});
  });
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) {  // back from the browser's cache: the server closed the board
      page.leaving = false;
      recover();
    }
  });
}

/* The board of the page's link. A FEN in the link that the server refuses is treated like one
 * typed into the FEN box: the board opens at the variant's start, and the FEN waits in the box
 * with the reason, to be corrected. */
async function openLinkedBoard(settings) {
  try {
    await openBoard(settings);
  } catch (error) {
    if (!(error.status === 400 && settings.fen)) throw error;
    const fen = settings.fen;
    delete settings.fen;
    await openBoard(settings);
    page.fenDraft = fen;
    $("txt-fen").value = fen;
    showFenError(error.message);
  }
}

async function start() {
  page.board = new BoardView($("board-holder"), (move) => act("move", {move}),
                             (text) => showMessage(text));
  page.board.setNumbers($("chk-numbers").checked);
  try {
    page.info = await api("GET", "/api/info");
    fillControls(page.info);
    wireControls();
    await openLinkedBoard(settingsFromUrl());
    setInterval(heartbeat, HEARTBEAT_MS);
    setInterval(showClocks, 100);
  } catch (error) {
    $("status").textContent = `Cannot open a board: ${error.message}`;
  }
}

document.addEventListener("DOMContentLoaded", start);
