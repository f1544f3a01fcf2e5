/* The analysis views: the move list as a tree (the line shown, with its variations), the
 * evaluation bar and the evaluation graph, the review's summary.
 *
 * Hooks for people and tests: each move in #moves carries data-ply (and data-node, its id
 * in the board's tree; data-mark once reviewed: inaccuracy, mistake or blunder); side lines
 * are .variation elements inside #moves; #eval-bar carries data-score (centi-men, White's
 * view) or data-mate; #eval-graph has one element per analysed ply with data-ply.
 */
"use strict";

const MARK_GLYPH = {inaccuracy: "?!", mistake: "?", blunder: "??"};
const SVG_NS_REVIEW = "http://www.w3.org/2000/svg";

/* The fraction of the bar that is White's for a score: 1/2 at 0, about 0.8 a man up. */
function whiteShare(score) {
  if (!score) return 0.5;
  if (score.mate !== null && score.mate !== undefined) return score.mate > 0 ? 1 : 0;
  const cp = Math.max(-1000, Math.min(1000, score.cp || 0));
  return 1 / (1 + Math.exp(-cp / 150));
}

function scoreLabel(score) {
  if (!score) return "";
  if (score.mate !== null && score.mate !== undefined) return (score.mate > 0 ? "+" : "-") + "M" + Math.abs(score.mate);
  const men = (score.cp || 0) / 100;
  return (men > 0 ? "+" : "") + men.toFixed(2);
}

function showEvalBar(state) {
  const bar = document.getElementById("eval-bar");
  const score = state.eval;
  bar.removeAttribute("data-score");
  bar.removeAttribute("data-mate");
  if (score && score.mate !== null && score.mate !== undefined) bar.setAttribute("data-mate", String(score.mate));
  else if (score && score.cp !== null && score.cp !== undefined) bar.setAttribute("data-score", String(score.cp));
  const share = whiteShare(score);
  bar.querySelector(".white-part").style.height = `${(share * 100).toFixed(1)}%`;
  bar.querySelector(".label").textContent = score ? scoreLabel(score) : "–";
  bar.title = score ? `Evaluation ${scoreLabel(score)} (White's view)` : "No evaluation yet";
}

/* One point per analysed ply of the line shown (line[i].score), x by ply, y by score. */
function showEvalGraph(state, goTo) {
  const holder = document.getElementById("eval-graph");
  const line = state.line || [];
  const points = line.filter((move) => move.score);
  holder.textContent = "";
  if (!points.length) {
    holder.hidden = !(state.review && state.review.running);
    return;
  }
  holder.hidden = false;
  const width = 300;
  const height = 80;
  const total = Math.max(line.length, 1);
  const graph = document.createElementNS(SVG_NS_REVIEW, "svg");
  graph.setAttribute("viewBox", `0 0 ${width} ${height}`);
  graph.setAttribute("preserveAspectRatio", "none");
  graph.setAttribute("class", "graph");
  const x = (ply) => (total === 1 ? width / 2 : ((ply - 1) / (total - 1)) * (width - 8) + 4);
  const y = (score) => height - whiteShare(score) * height;
  const mid = document.createElementNS(SVG_NS_REVIEW, "line");
  for (const [k, v] of Object.entries({x1: 0, x2: width, y1: height / 2, y2: height / 2, class: "mid"})) mid.setAttribute(k, v);
  graph.appendChild(mid);
  const path = document.createElementNS(SVG_NS_REVIEW, "polyline");
  path.setAttribute("points", points.map((m) => `${x(m.ply).toFixed(1)},${y(m.score).toFixed(1)}`).join(" "));
  path.setAttribute("class", "curve");
  graph.appendChild(path);
  for (const move of points) {
    const dot = document.createElementNS(SVG_NS_REVIEW, "circle");
    dot.setAttribute("cx", x(move.ply).toFixed(1));
    dot.setAttribute("cy", y(move.score).toFixed(1));
    dot.setAttribute("r", move.ply === state.ply ? "3.5" : "2.2");
    dot.setAttribute("data-ply", String(move.ply));
    dot.setAttribute("class", "point" + (move.mark ? " " + move.mark : "") + (move.ply === state.ply ? " current" : ""));
    const title = document.createElementNS(SVG_NS_REVIEW, "title");
    title.textContent = `${move.label} ${move.text}: ${scoreLabel(move.score)}`;
    dot.appendChild(title);
    dot.addEventListener("click", () => goTo(move));
    graph.appendChild(dot);
  }
  holder.appendChild(graph);
}

function moveSpan(move, current, onNode, className) {
  const span = document.createElement("span");
  span.className = className;
  if (current) span.classList.add("current");
  span.setAttribute("data-ply", String(move.ply));
  span.setAttribute("data-node", String(move.id));
  span.textContent = move.text + (move.mark ? MARK_GLYPH[move.mark] : "");
  if (move.mark) {
    span.setAttribute("data-mark", move.mark);
    span.classList.add(move.mark);
  }
  span.title = move.mark ? `${move.mark}${move.better ? "; better " + move.better : ""}`
    : "Go to the position after this move";
  span.addEventListener("click", () => onNode(move.id));
  return span;
}

/* A side line: ( label move move ... ) with promote and delete buttons. */

/** A small button of a side line (promote, delete); a click does not also select the move. */
function lineButton(className, text, title, action) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = className;
  button.textContent = text;
  button.title = title;
  button.addEventListener("click", (e) => { e.stopPropagation(); action(); });
  return button;
}

function variationElement(moves, onNode, onPromote, onDelete) {
  const box = document.createElement("span");
  box.className = "variation";
  box.appendChild(document.createTextNode("( "));
  moves.forEach((move, index) => {
    if (index === 0 || !move.label.endsWith("...")) {
      const num = document.createElement("span");
      num.className = "vnum";
      num.textContent = move.label;
      box.appendChild(num);
      box.appendChild(document.createTextNode(" "));
    }
    box.appendChild(moveSpan(move, false, onNode, "move"));
    box.appendChild(document.createTextNode(" "));
  });
  box.appendChild(lineButton("var-promote", "↑", "Make this line the main line",
                             () => onPromote(moves[0].id)));
  box.appendChild(lineButton("var-delete", "×", "Delete this line", () => onDelete(moves[0].id)));
  box.appendChild(document.createTextNode(" )"));
  return box;
}

/* The line shown in two lists: played moves (#moves) and those redo replays (#moves-ahead),
 * each move followed by the side lines played in its place. */
function fillLine(list, moves, currentPly, handlers) {
  list.textContent = "";
  let item = null;
  moves.forEach((move) => {
    if (item === null || !move.label.endsWith("...") || move.variationsBefore) {
      item = document.createElement("li");
      const num = document.createElement("span");
      num.className = "num";
      num.textContent = move.label;
      item.appendChild(num);
      list.appendChild(item);
    }
    item.appendChild(document.createTextNode(" "));
    item.appendChild(moveSpan(move, move.ply === currentPly, handlers.node, "ply"));
    if (move.mark && move.better) {
      const better = document.createElement("span");
      better.className = "better";
      better.textContent = ` (better ${move.better})`;
      item.appendChild(better);
    }
    for (const side of move.variations || []) {
      item.classList.add("wide");  // a row of its own: the side line reads as a sentence
      item.appendChild(document.createTextNode(" "));
      item.appendChild(variationElement(side, handlers.node, handlers.promote, handlers.remove));
      item = null;  // the game goes on on a new row after a side line
    }
  });
}

function showReview(state) {
  const review = state.review;
  const progress = document.getElementById("review-progress");
  const box = document.getElementById("review-summary");
  if (!review) {
    progress.hidden = true;
    box.textContent = "";
    return;
  }
  progress.hidden = !review.running;
  progress.max = review.total;
  progress.value = review.done;
  box.textContent = "";
  if (review.summary) {
    for (const side of ["white", "black"]) {
      const s = review.summary[side];
      const row = document.createElement("div");
      row.setAttribute("data-side", side);
      row.textContent = `${side[0].toUpperCase() + side.slice(1)}: average loss ${(s.average_loss / 100).toFixed(2)} men over ${s.moves} moves; ` +
        `${s.inaccuracy} inaccuracies, ${s.mistake} mistakes, ${s.blunder} blunders`;
      box.appendChild(row);
    }
  } else if (review.running) {
    box.textContent = `Reviewing: ${review.done}/${review.total} positions…`;
  }
}
