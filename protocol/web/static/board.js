/* The SVG board: draws a position and turns clicks and drags into legal moves.
 *
 * It knows no rules: the server sends the legal moves (each with every landing-square
 * path that denotes it) and the board only picks one of them.  A move is chosen by
 * clicking (or dragging) its piece and then its destination; where two captures share
 * their origin and destination, the board then asks for the squares the capture passes
 * through, one at a time, until one move is left.
 *
 * Every playable square is a <rect data-square="N"> (N is its PDN number); it also
 * carries data-piece ("w", "b", "W", "B") when a piece stands on it.  Where the variant's
 * own notation is algebraic (Russian, Brazilian, ...) the server sends the squares' names:
 * the board draws files and ranks along its edges and names squares with them.
 */
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  if (parent) parent.appendChild(el);
  return el;
}

/* Whether `wanted` appears in order within `seq` (not necessarily adjacent). */
function isSubsequence(wanted, seq) {
  let i = 0;
  for (const item of seq) {
    if (i < wanted.length && item === wanted[i]) i += 1;
  }
  return i === wanted.length;
}

class BoardView {
  /* holder: the element the <svg> goes in; onMove(pdn): called with the chosen move;
   * onHint(text): called with a short sentence when the board needs another click. */
  constructor(holder, onMove, onHint) {
    this.holder = holder;
    this.onMove = onMove;
    this.onHint = onHint || (() => {});
    this.size = 0;
    this.cells = null;
    this.names = null;  // algebraic names by PDN number - 1, or null: squares go by number
    this.squares = 0;  // playable squares: size * size / 2, or size * size (Turkish)
    this.flipped = false;
    this.numbers = false;
    this.pieces = "";
    this.legal = [];
    this.last = null;
    this.arrow = null;
    this.selection = null;  // {origin, via: [], end: null}
    this.drag = null;
    // The server drew the link's position into the page (the first paint): it stays until
    // the first show() puts this live board in its place.
    this.svg = svg("svg", {id: "board", role: "img", "aria-label": "draughts board"},
                   holder.querySelector("svg") ? null : holder);
    const defs = svg("defs", {}, this.svg);
    const marker = svg("marker", {id: "arrowhead", viewBox: "0 0 10 10", refX: "5", refY: "5",
                                  markerWidth: "3", markerHeight: "3", orient: "auto-start-reverse"}, defs);
    svg("path", {d: "M 0 0 L 10 5 L 0 10 z", class: "arrowhead"}, marker);
    this.layers = {};
    for (const name of ["squares", "marks", "pieces", "labels", "arrows", "dragging"]) {
      this.layers[name] = svg("g", {class: name}, this.svg);
    }
    this.svg.addEventListener("pointerdown", (e) => this._pointerDown(e));
    window.addEventListener("pointermove", (e) => this._pointerMove(e));
    window.addEventListener("pointerup", (e) => this._pointerUp(e));
    window.addEventListener("pointercancel", () => this._endDrag());
  }

  /* ---------------------------------------------------------------- geometry */

  /* Every square is playable (Turkish draughts): numbered row by row from the top left. */
  allSquares() {
    return this.squares === this.size * this.size;
  }

  /* [row, col] of a square as drawn; `cells` (from the server) places the squares of
   * boards numbered otherwise (Italian, Spanish, Portuguese), else the PDN layout. */
  rowCol(square) {
    let row;
    let col;
    if (this.cells) {
      [row, col] = this.cells[square - 1];
    } else if (this.allSquares()) {
      row = Math.floor((square - 1) / this.size);
      col = (square - 1) % this.size;
    } else {
      const half = this.size / 2;
      row = Math.floor((square - 1) / half);
      col = 2 * ((square - 1) % half) + (row % 2 === 0 ? 1 : 0);
    }
    return this.flipped ? [this.size - 1 - row, this.size - 1 - col] : [row, col];
  }

  /* What a person calls a square: its algebraic name where the variant writes those, else
   * its number. */
  squareName(square) {
    return this.names ? this.names[square - 1] : String(square);
  }

  centre(square) {
    const [row, col] = this.rowCol(square);
    return [col + 0.5, row + 0.5];
  }

  squareAt(clientX, clientY) {
    const el = document.elementFromPoint(clientX, clientY);
    const rect = el && el.closest ? el.closest("[data-square]") : null;
    return rect ? Number(rect.getAttribute("data-square")) : 0;
  }

  /* ---------------------------------------------------------------- state */

  /* Show a position: {size, cells, names, pieces, legal, last, arrow}; `pieces` has one
   * character per playable square; `legal` is empty when the person may not move now. Keeps
   * a selection that is still possible. */
  show(view) {
    if (this.svg.parentNode !== this.holder) {  // the server's drawing goes
      this.holder.textContent = "";
      this.holder.appendChild(this.svg);
    }
    const cells = view.cells || null;
    const names = view.names || null;
    const sizeChanged = view.size !== this.size || view.pieces.length !== this.squares
      || JSON.stringify(cells) !== JSON.stringify(this.cells)
      || JSON.stringify(names) !== JSON.stringify(this.names);
    const legalChanged = JSON.stringify(view.legal || []) !== JSON.stringify(this.legal);
    this.size = view.size;
    this.squares = view.pieces.length;
    this.cells = cells;
    this.names = names;
    this.pieces = view.pieces;
    this.legal = view.legal || [];
    this.last = view.last || null;
    this.arrow = view.arrow || null;
    this.arrows = view.arrows || null;
    if (sizeChanged) this._buildSquares();
    if (legalChanged) this.selection = null;
    this.render();
  }

  setFlipped(flipped) {
    this.flipped = flipped;
    this._buildSquares();
    this.render();
  }

  setNumbers(show) {
    this.numbers = show;
    this.svg.classList.toggle("show-numbers", show);
  }

  clearSelection() {
    this.selection = null;
    this.render();
  }

  /* ---------------------------------------------------------------- drawing */

  _buildSquares() {
    const n = this.size;
    this.svg.setAttribute("viewBox", `0 0 ${n} ${n}`);
    this.svg.classList.toggle("board-8", n === 8);
    this.svg.classList.toggle("board-10", n === 10);
    this.svg.classList.toggle("board-12", n === 12);
    for (const name of ["squares", "labels"]) this.layers[name].textContent = "";
    this.rects = {};
    this.svg.classList.toggle("all-squares", this.allSquares());
    const playing = new Set();
    for (let square = 1; square <= this.squares; square += 1) {
      const [row, col] = this.rowCol(square);
      playing.add(row * n + col);
    }
    for (let row = 0; row < n; row += 1) {
      for (let col = 0; col < n; col += 1) {
        if (!playing.has(row * n + col)) {
          svg("rect", {x: col, y: row, width: 1, height: 1, class: "light"}, this.layers.squares);
        }
      }
    }
    for (let square = 1; square <= this.squares; square += 1) {
      const [row, col] = this.rowCol(square);
      this.rects[square] = svg("rect", {x: col, y: row, width: 1, height: 1, class: "dark",
                                        "data-square": square}, this.layers.squares);
      const label = svg("text", {x: col + 0.06, y: row + 0.27, class: "num"}, this.layers.labels);
      label.textContent = this.squareName(square);
    }
    if (this.names) this._buildCoordinates();
  }

  /* Files along the bottom edge and ranks along the left one, read from the squares' names
   * (so that they follow the layout and a flipped board). */
  _buildCoordinates() {
    const n = this.size;
    const files = {};
    const ranks = {};
    for (let square = 1; square <= this.squares; square += 1) {
      const [row, col] = this.rowCol(square);
      const name = this.names[square - 1];
      files[col] = name.slice(0, 1);
      ranks[row] = name.slice(1);
    }
    for (const [col, file] of Object.entries(files)) {
      const text = svg("text", {x: Number(col) + 0.94, y: n - 0.06, class: "coord file"},
                       this.layers.labels);
      text.textContent = file;
    }
    for (const [row, rank] of Object.entries(ranks)) {
      const text = svg("text", {x: 0.06, y: Number(row) + 0.94, class: "coord rank"},
                       this.layers.labels);
      text.textContent = rank;
    }
  }

  render() {
    if (!this.size) return;
    const marks = this.layers.marks;
    const pieces = this.layers.pieces;
    const arrows = this.layers.arrows;
    marks.textContent = "";
    pieces.textContent = "";
    arrows.textContent = "";
    const squares = this.squares;
    const movable = new Set(this.legal.map((m) => m.paths[0][0]));
    const targets = this._targets();
    for (let square = 1; square <= squares; square += 1) {
      const rect = this.rects[square];
      const piece = this.pieces[square - 1];
      if (piece && piece !== ".") rect.setAttribute("data-piece", piece);
      else rect.removeAttribute("data-piece");
      const classes = ["dark"];
      if (this.allSquares()) {  // every square plays: a plain checked board
        const [row, col] = this.rowCol(square);
        if ((row + col) % 2 === 0) classes.push("even");
      }
      if (this.last && this.last.path.includes(square)) classes.push("last");
      if (this.selection && (square === this.selection.origin || this.selection.via.includes(square)
                             || square === this.selection.end)) classes.push("selected");
      if (movable.has(square)) classes.push("movable");
      if (targets.dest.has(square)) classes.push("dest");
      if (targets.via.has(square)) classes.push("via");
      rect.setAttribute("class", classes.join(" "));
      if (targets.dest.has(square) || targets.via.has(square)) {
        const [x, y] = this.centre(square);
        svg("circle", {cx: x, cy: y, r: targets.dest.has(square) ? 0.16 : 0.1,
                       class: targets.dest.has(square) ? "dest-dot" : "via-dot"}, marks);
      }
      if (piece && piece !== ".") this._drawPiece(pieces, square, piece);
    }
    if (this.last && this.last.captured) {
      for (const square of this.last.captured) {
        const [x, y] = this.centre(square);
        svg("circle", {cx: x, cy: y, r: 0.12, class: "taken"}, marks);
      }
    }
    // The analysis lines' arrows, the best first and strongest (thicker, more opaque).
    const drawn = this.arrows && this.arrows.length ? this.arrows : (this.arrow ? [this.arrow] : []);
    drawn.forEach((arrow, index) => {
      if (!arrow || arrow.length !== 2 || arrow[0] === arrow[1]) return;
      const [x1, y1] = this.centre(arrow[0]);
      const [x2, y2] = this.centre(arrow[1]);
      const len = Math.hypot(x2 - x1, y2 - y1);
      const shorten = 0.3 / len;
      const weight = index === 0 ? 1 : Math.max(0.3, 0.75 - 0.15 * index);
      svg("line", {x1, y1, x2: x2 - (x2 - x1) * shorten, y2: y2 - (y2 - y1) * shorten,
                   class: "arrow" + (index === 0 ? " best" : ""), "data-line": index + 1,
                   "stroke-opacity": weight, "stroke-width": (0.16 * weight).toFixed(3),
                   "marker-end": "url(#arrowhead)"}, arrows);
    });
  }

  _drawPiece(layer, square, piece, at) {
    const [x, y] = at || this.centre(square);
    const white = piece === "w" || piece === "W";
    const g = svg("g", {class: "piece " + (white ? "white" : "black")
                        + (this.drag && this.drag.origin === square && !at ? " lifted" : "")}, layer);
    svg("circle", {cx: x, cy: y, r: 0.4, class: "body"}, g);
    svg("circle", {cx: x, cy: y, r: 0.28, class: "ring"}, g);
    if (piece === "W" || piece === "B") {
      const s = 0.2;
      const points = [
        [x - s, y + s * 0.6], [x - s, y - s * 0.5], [x - s * 0.5, y], [x, y - s * 0.8],
        [x + s * 0.5, y], [x + s, y - s * 0.5], [x + s, y + s * 0.6]];
      svg("polygon", {points: points.map((p) => p.join(",")).join(" "), class: "crown"}, g);
    }
    return g;
  }

  /* ---------------------------------------------------------------- choosing a move */

  _movesFrom(square) {
    return this.legal.filter((m) => m.paths[0][0] === square);
  }

  /* The legal moves still possible with the squares chosen so far, each with the
   * paths that fit. With `end` set, `via` must lie strictly inside the path. */
  _candidates(origin, via, end) {
    const out = [];
    for (const move of this._movesFrom(origin)) {
      const paths = move.paths.filter((p) => (end === null
        ? isSubsequence(via, p.slice(1))
        : p[p.length - 1] === end && isSubsequence(via, p.slice(1, -1))));
      if (paths.length) out.push({move, paths});
    }
    return out;
  }

  _targets() {
    const dest = new Set();
    const via = new Set();
    const sel = this.selection;
    if (!sel) return {dest, via};
    for (const {paths} of this._candidates(sel.origin, sel.via, sel.end)) {
      for (const p of paths) {
        if (sel.end === null) {
          dest.add(p[p.length - 1]);
          if (sel.via.length) {
            const rest = p.slice(1, -1);
            for (const s of rest) if (!sel.via.includes(s)) via.add(s);
          }
        } else {
          for (const s of p.slice(1, -1)) if (!sel.via.includes(s)) via.add(s);
        }
      }
    }
    return {dest, via};
  }

  /* One click (or the drop of a drag) on `square`. */
  choose(square) {
    const sel = this.selection;
    if (!sel) {
      this._select(square);
      return;
    }
    if (square === sel.origin && (sel.end !== null || !this._endsOn(sel, square))) {
      this.selection = null;  // a second click on the piece lets it go ...
      this.render();
      return;
    }  // ... unless a capture comes back to it: its own square is then a destination
    const via = sel.via.concat([square]);
    if (sel.end === null) {
      const fits = this._candidates(sel.origin, via, null);
      if (fits.length) {
        const ending = fits.filter(({paths}) => paths.some((p) => p[p.length - 1] === square));
        if (ending.length) {
          sel.end = square;
          this._settle(this._candidates(sel.origin, sel.via, square));
        } else {
          sel.via = via;
          this._settle(fits);
        }
        return;
      }
    } else {
      const fits = this._candidates(sel.origin, via, sel.end);
      if (fits.length) {
        sel.via = via;
        this._settle(fits);
        return;
      }
      if (square === sel.end) {
        // The end again: the capture through exactly the squares chosen so far (a shorter
        // capture whose squares all lie on a longer one can be chosen no other way).
        const path = [sel.origin].concat(sel.via, [sel.end]);
        const exact = this._candidates(sel.origin, sel.via, sel.end).filter(({paths}) =>
          paths.some((p) => p.length === path.length && p.every((q, i) => q === path[i])));
        if (exact.length === 1) this._settle(exact);
        return;
      }
    }
    this._select(square);
  }

  /* Whether a capture still possible with the selection `sel` ends on `square`. */
  _endsOn(sel, square) {
    return this._candidates(sel.origin, sel.via, null).some(({paths}) =>
      paths.some((p) => p.length > 1 && p[p.length - 1] === square));
  }

  _select(square) {
    this.selection = this._movesFrom(square).length ? {origin: square, via: [], end: null} : null;
    this.render();
  }

  _settle(fits) {
    if (fits.length === 1) {
      const move = fits[0].move;
      this.selection = null;
      this.render();
      this.onMove(move.pdn);
      return;
    }
    if (this.selection.end !== null) {
      const end = this.squareName(this.selection.end);
      this.onHint(`${fits.length} captures end on ${end}: click a square the capture passes through (or ${end} again for the one through just the squares chosen).`);
    }
    this.render();
  }

  /* ---------------------------------------------------------------- pointer input */

  _pointerDown(event) {
    if (event.button !== 0) return;
    const square = this.squareAt(event.clientX, event.clientY);
    if (!square) return;
    event.preventDefault();
    const wasOrigin = this.selection && this.selection.origin === square;
    if (!wasOrigin) this.choose(square);
    if (this.selection && this.selection.origin === square && this.selection.via.length === 0) {
      this.drag = {origin: square, x: event.clientX, y: event.clientY, moved: false, wasOrigin};
    }
  }

  _pointerMove(event) {
    const drag = this.drag;
    if (!drag) return;
    if (!drag.moved && Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < 4) return;
    drag.moved = true;
    const box = this.svg.getBoundingClientRect();
    const x = (event.clientX - box.left) / box.width * this.size;
    const y = (event.clientY - box.top) / box.height * this.size;
    const layer = this.layers.dragging;
    layer.textContent = "";
    this._drawPiece(layer, drag.origin, this.pieces[drag.origin - 1], [x, y]);
    this.render();
  }

  _pointerUp(event) {
    const drag = this.drag;
    if (!drag) return;
    this._endDrag();
    const square = this.squareAt(event.clientX, event.clientY);
    const comesBack = square === drag.origin && (drag.moved || drag.wasOrigin)
      && this.selection && this.selection.end === null && this._endsOn(this.selection, square);
    if (square && (square !== drag.origin || comesBack)) {
      this.choose(square);  // (on its own square: a capture that comes back to it)
    } else if (drag.wasOrigin && !drag.moved) {
      this.selection = null;
      this.render();
    } else {
      this.render();
    }
  }

  _endDrag() {
    this.drag = null;
    this.layers.dragging.textContent = "";
  }
}

window.BoardView = BoardView;
