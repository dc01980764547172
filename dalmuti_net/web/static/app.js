// The web table's page: a thin renderer. The host sends each view already drawn and in
// the chosen language; this page lays it out for touch and sends back what was tapped.
// No game rules live here: a choice the rules forbid is explained by the host's own
// checks before anything reaches the table.
"use strict";

const $ = (id) => document.getElementById(id);
const store = {
  get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
  set(key, value) {
    try { value === null ? localStorage.removeItem(key) : localStorage.setItem(key, value); } catch (e) { /* private mode */ }
  },
};
const SEATS_KEY = "dalmuti.seats." + location.host;   // the seats' resume tokens, kept here
const MOST_SEATS = 8;
const MAIN_KEYS = new Set(["enter"]);

// ---------------------------------------------------------------- proving a seat
// The page takes its seat back as any client does (PROTOCOL.md, "Taking a seat back"):
// the host proves it holds the seat's token, then the page proves it, and the token never
// crosses the wire again. crypto.subtle exists only in a secure context, which a LAN
// http:// address is not: SHA-256 (FIPS 180-4) and HMAC (RFC 2104) are written here.

const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function rotr(x, n) { return (x >>> n) | (x << (32 - n)); }

function sha256(bytes) {   // Uint8Array -> its 32-byte digest
  const bits = bytes.length * 8;
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const data = new DataView(padded.buffer);
  data.setUint32(padded.length - 8, Math.floor(bits / 0x100000000));
  data.setUint32(padded.length - 4, bits >>> 0);
  const h = new Uint32Array([
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
  ]);
  const w = new Uint32Array(64);   // a Uint32Array keeps each sum modulo 2^32
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = data.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
        SHA256_K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  h.forEach((word, i) => out.setUint32(4 * i, word));
  return digest;
}

function hmacSha256(key, message) {   // both Uint8Array
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? sha256(key) : key);
  const inner = new Uint8Array(64 + message.length);
  const outer = new Uint8Array(64 + 32);
  for (let i = 0; i < 64; i++) { inner[i] = block[i] ^ 0x36; outer[i] = block[i] ^ 0x5c; }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return sha256(outer);
}

const utf8 = (text) => new TextEncoder().encode(text);
const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

function fields(parts) {   // joined by a zero byte, which no string on the wire holds
  const encoded = parts.map(utf8);
  const all = new Uint8Array(encoded.reduce((n, part) => n + part.length + 1, -1));
  let at = 0;
  encoded.forEach((part, i) => { if (i) all[at++] = 0; all.set(part, at); at += part.length; });
  return all;
}

function seatId(token) {
  return hex(sha256(fields(["dalmuti-net seat id", token]))).slice(0, 32);
}

function seatProof(who, token, tableId, clientNonce, hostNonce) {   // who: "host" or "client"
  const label = "dalmuti-net " + who + " proof";
  return hex(hmacSha256(utf8(token), fields([label, tableId, seatId(token), clientNonce, hostNonce])));
}

function newNonce() {
  return hex(crypto.getRandomValues(new Uint8Array(16)));
}

function sameText(a, b) {   // in time that does not tell how much of a guess was right
  if (typeof a !== "string" || typeof b !== "string" || a.length !== b.length) return false;
  let differ = 0;
  for (let i = 0; i < a.length; i++) differ |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return differ === 0;
}

let ws = null;
let joined = null;          // {name, spectator, code}: what the player asked for
let left = false;           // the player left, or the host could not prove the seat: no reconnecting
let retries = 0;
let strings = {};
let lastSize = "";
let tableName = "Dalmuti";
let codeRequired = false;
let tableId = null;         // the table this connection's host says it runs (a claim)
let atTable = null;         // the table this page joined: a reconnect elsewhere asks first
let current = null;         // the token of the seat this page holds now
let asking = null;          // {token, nonce} of the seat being asked back
let newSeat = false;        // a new seat was asked for on this connection: its token may come
const refused = new Set();  // tokens of seats this connection's host would not give back

// The seats this browser holds on this address, newest first: {token, table_id, proven}.
// A seat is never replaced on the word of a host that proved nothing: a new one is kept
// beside it, and past MOST_SEATS those no host ever proved go first, so that a program
// handing out seats over and over cannot push a real one out (PROTOCOL.md, Security, as
// the terminal's remembered seats). No join code is ever kept.
function seats() {
  try {
    const all = JSON.parse(store.get(SEATS_KEY) || "[]");
    return Array.isArray(all) ? all.filter((s) => s && typeof s.token === "string" && typeof s.table_id === "string") : [];
  } catch (e) { return []; }
}

function keepSeat(token, table, proven) {
  const all = seats();
  const before = all.find((s) => s.token === token);
  const entry = { token: token, table_id: table, proven: !!proven || !!(before && before.proven) };
  const list = [entry, ...all.filter((s) => s.token !== token)];
  while (list.length > MOST_SEATS) {
    const unproven = list.map((s) => !!s.proven).lastIndexOf(false);
    list.splice(unproven === -1 ? list.length - 1 : unproven, 1);
  }
  store.set(SEATS_KEY, JSON.stringify(list));
}

function forgetSeat(token) {
  const others = seats().filter((s) => s.token !== token);
  store.set(SEATS_KEY, others.length ? JSON.stringify(others) : null);
}

function seatAt(table) {   // the seat to ask back at this table: one a host proved first
  const here = seats().filter((s) => s.table_id === table && !refused.has(s.token));
  return here.find((s) => s.proven) || here[0] || null;
}

(function tidyOldKeys() {   // what earlier versions of this page kept: a code, one token
  try {
    const old = JSON.parse(store.get("dalmuti.seat." + location.host) || "null");
    if (old && typeof old.token === "string" && typeof old.table_id === "string") keepSeat(old.token, old.table_id);
  } catch (e) { /* unreadable: dropped */ }
  store.set("dalmuti.seat." + location.host, null);
  store.set("dalmuti.code." + location.host, null);
})();

function language() {
  return store.get("dalmuti.lang") || "";
}

function show(section) {
  for (const id of ["join", "table", "gone"]) $(id).hidden = id !== section;
}

function status(text, bad) {
  $("status").textContent = text || "";
  $("status").className = bad ? "bad" : "";
}

function connect() {
  const lang = language();
  const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/table" +
    (lang ? "?lang=" + encodeURIComponent(lang) : "");
  const socket = new WebSocket(url);
  ws = socket;
  asking = null;
  newSeat = false;
  refused.clear();   // a host that proved nothing cannot make this page drop a seat for good
  socket.onopen = () => { retries = 0; sendSize(true); };   // the join waits for the host's hello
  socket.onmessage = (event) => { if (ws === socket) receive(JSON.parse(event.data)); };
  socket.onclose = () => {
    if (ws !== socket) return;   // an earlier connection, closed after its successor opened
    ws = null;
    asking = null;
    if (left) return;
    status(strings.reconnecting || "…", true);
    const delay = Math.min(8000, 500 * 2 ** retries++);
    setTimeout(() => { if (!ws && !left) connect(); }, delay);
  };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function sendJoin() {
  const message = { name: joined.name, lang: language(), spectator: joined.spectator };
  if (joined.code) message.code = joined.code;
  atTable = tableId;
  newSeat = !joined.spectator;
  send({ join: message });
}

function askBack(kept) {   // take a kept seat back: its id and a nonce, never its token
  asking = { token: kept.token, nonce: newNonce() };
  atTable = tableId;
  send({ join: {
    name: joined.name, lang: language(),
    resume: { table_id: tableId, seat: seatId(kept.token), nonce: asking.nonce },
  } });
}

function challenge(c) {
  // The host proves it holds the seat first; if it cannot, nothing more is sent to it.
  const proven = asking !== null && typeof c.nonce === "string" && /^[0-9a-f]{32}$/.test(c.nonce) &&
    c.nonce !== asking.nonce &&
    sameText(c.proof, seatProof("host", asking.token, tableId, asking.nonce, c.nonce));
  if (!proven) {
    left = true;
    asking = null;
    if (ws) ws.close();
    gone(strings.unproven);
    return;
  }
  send({ prove: seatProof("client", asking.token, tableId, asking.nonce, c.nonce) });
  keepSeat(asking.token, tableId, true);   // this host proved it: the table's own seat,
  for (const token of refused) forgetSeat(token);   // and the seats it refused are gone
  current = asking.token;
  asking = null;
  joined.code = null;
}

function gone(text) {
  $("gone-text").textContent = text || "";
  show("gone");
}

function ask(problem) {   // the join form, the name filled in: the player decides
  joined = null;
  $("name").value = store.get("dalmuti.name") || "";
  $("join-problem").textContent = problem || "";
  show("join");
  $("name").focus();
}

function receive(message) {
  if (message.hello) return hello(message.hello);
  if (message.view) return draw(message.view);
  if (message.challenge) return challenge(message.challenge);
  if ("seat" in message) {
    if (message.seat === "forget") {
      if (current) forgetSeat(current);
    } else if (message.seat === "keep") {
      if (current && atTable) keepSeat(current, atTable);
    } else if (newSeat && message.seat && typeof message.seat.token === "string") {
      newSeat = false;   // told once, and only for a new seat this page asked for
      current = message.seat.token;
      keepSeat(current, tableId);
      if (joined) joined.code = null;   // seated: the seat is proved from now on
    }
    return;
  }
  if (message.refused) {   // the table does not give that seat back: another, or ask
    if (asking) refused.add(asking.token);
    asking = null;
    const next = joined && seatAt(tableId);
    if (next) askBack(next);
    else if (joined && !codeRequired) sendJoin();   // a new seat at once, as a terminal takes one
    else ask(strings.seat_gone);   // the code is the player's to give again: none is kept
    return;
  }
  if (message.left) {
    left = true;
    joined = null;
    gone(strings.closed);
    ws && ws.close();
    return;
  }
  if (message.error) {
    left = true;
    gone(message.error);
  }
}

function hello(h) {
  strings = h.strings;
  document.documentElement.lang = h.lang === "zh_Hant" ? "zh-Hant" : h.lang;
  $("table-name").textContent = h.table;
  tableName = h.table;
  tableId = typeof h.table_id === "string" ? h.table_id : null;
  document.title = h.table;
  $("name-label").textContent = strings.name;
  $("code-label").textContent = strings.code;
  $("join-button").textContent = strings.join;
  $("watch-button").textContent = strings.watch;
  $("again").textContent = strings.again;
  $("lang").setAttribute("aria-label", strings.language);
  $("editor-send").textContent = strings.send;
  $("editor-cancel").textContent = strings.cancel;
  codeRequired = !!h.code_required;
  $("code-row").hidden = !codeRequired;
  status("");
  if (joined) {
    // Reconnected: back only to what this page holds at the table it was at. Another
    // table on this address (the one it was at ended) is the player's to join or not.
    const kept = !joined.spectator && atTable === tableId && seatAt(tableId);
    if (atTable !== tableId) return ask(strings.other_table);
    if (joined.spectator) return sendJoin();
    if (kept) return askBack(kept);
    return ask("");
  }
  const kept = seatAt(tableId);
  const name = store.get("dalmuti.name");
  if (kept && name) {    // this browser has a seat here: take it back at once
    joined = { name: name, spectator: false, code: null };
    askBack(kept);
    return;
  }
  ask("");
}

function join(spectator) {
  const name = $("name").value.trim();
  if (!name) { $("join-problem").textContent = strings.empty_name; return; }
  $("join-problem").textContent = "";
  // The code goes with this join only (and a watcher's reconnects): never kept.
  const code = $("code").value.trim() || null;
  $("code").value = "";
  store.set("dalmuti.name", name);
  joined = { name: name, code: code, spectator: !!spectator };
  sendJoin();
  show("table");
}

function button(label, onTap, className) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (className) b.className = className;
  b.addEventListener("click", onTap);
  return b;
}

function fragments(parent, line) {
  for (const [style, text] of line) {
    const span = document.createElement("span");
    if (style) span.className = style;
    span.textContent = text;
    parent.appendChild(span);
  }
}

function lines(parent, all) {
  parent.replaceChildren();
  all.forEach((line, i) => { if (i) parent.appendChild(document.createTextNode("\n")); fragments(parent, line); });
}

function cell(row, className, fill) {
  const td = document.createElement("td");
  if (className) td.className = className;
  fill(td);
  row.appendChild(td);
}

function drawResults(results) {
  $("results").hidden = !results;
  $("seats").hidden = !!results;
  $("trick").hidden = !!results;
  if (!results) return;
  $("results-title").textContent = results.title;
  const head = $("results-head");
  head.replaceChildren();
  results.headers.forEach((text, i) => {
    const th = document.createElement("th");
    th.textContent = text;
    if (i >= 3) th.className = "n";
    head.appendChild(th);
  });
  const body = $("results-rows");
  body.replaceChildren();
  for (const row of results.rows) {
    const tr = document.createElement("tr");
    if (row.me) tr.className = "me";
    row.cells.forEach((text, i) => cell(tr, i >= 3 ? "n" : "", (td) => { td.textContent = text; }));
    body.appendChild(tr);
  }
  const notes = $("results-notes");
  notes.replaceChildren();
  for (const text of results.notes) {
    const p = document.createElement("p");
    p.textContent = text;
    notes.appendChild(p);
  }
  $("results-next").textContent = results.next;
}

function drawBoard(board) {
  drawResults(board.results);
  const header = $("board-header");
  header.replaceChildren();
  const left = document.createElement("span");
  const right = document.createElement("span");
  const [first, ...rest] = board.header;
  fragments(left, [first]);
  fragments(right, rest.filter(([, text]) => text.trim()));
  header.append(left, right);
  const head = $("seat-head");
  head.replaceChildren();
  board.headings.forEach((text, i) => {
    const th = document.createElement("th");
    th.textContent = text;
    if (i >= 2) th.style.textAlign = "right";
    head.appendChild(th);
  });
  const body = $("seats").tBodies[0];
  body.replaceChildren();
  for (const seat of board.seats) {
    const row = document.createElement("tr");
    if (seat.turn) row.className = "turn";
    cell(row, "", (td) => {
      const name = document.createElement("div");
      name.textContent = (seat.turn ? "▶ " : "") + seat.symbol + " " + seat.name;
      if (seat.me) name.className = "me";
      const flags = document.createElement("div");
      flags.className = "flags";
      fragments(flags, seat.flags);
      td.append(name, flags);
    });
    cell(row, "role", (td) => { td.textContent = seat.role; });
    cell(row, "n", (td) => { td.textContent = seat.cards; });
    cell(row, "n", (td) => { td.textContent = seat.score === null ? "" : seat.score; });
    body.appendChild(row);
  }
  lines($("trick"), board.trick);
  lines($("memory"), board.memory);
  lines($("standings"), board.standings);
  lines($("turn-line"), [board.turn]);
  $("prompt").textContent = board.prompt;
  $("selection").textContent = board.selection;
  $("log-title").textContent = board.log_title;
  const log = $("log-lines");
  const atBottom = log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
  log.replaceChildren();
  for (const [kind, text] of board.log) {
    const div = document.createElement("div");
    div.className = kind;
    div.textContent = text;
    log.appendChild(div);
  }
  if (atBottom) log.scrollTop = log.scrollHeight;
}

function draw(view) {
  show("table");
  status("");
  const board = view.table;
  $("board").hidden = !board;
  $("screen").hidden = !!board;
  if (board) {
    drawBoard(board);
  } else {
    for (const id of ["turn-line", "prompt", "selection"]) $(id).replaceChildren();
    const pre = $("screen");
    const atBottom = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 4;
    lines(pre, view.screen);
    if (atBottom) pre.scrollTop = pre.scrollHeight;
  }
  lines($("question"), view.question);
  const myTurn = !!view.turn;
  if (myTurn && !document.body.classList.contains("my-turn")) {
    // The terminal rings its bell and sets the window title: a phone buzzes, and the
    // tab's title says so for a laptop's browser with the table in another tab.
    if (navigator.vibrate) navigator.vibrate(80);
  }
  document.body.classList.toggle("my-turn", myTurn);
  document.title = (myTurn ? "▶ " : "") + tableName;

  const sets = $("sets");
  const scrolled = sets.scrollLeft;
  let chosen = null;
  sets.replaceChildren();
  sets.scrollLeft = scrolled;
  view.sets.forEach((s, i) => {
    const chip = button(s.label, () => send({ set: i }), s.chosen ? "chosen" : "");
    chip.dataset.set = i;
    sets.appendChild(chip);
    if (s.chosen) chosen = chip;
  });
  if (chosen) {
    const left = chosen.offsetLeft - sets.offsetLeft;
    if (left < sets.scrollLeft || left + chosen.offsetWidth > sets.scrollLeft + sets.clientWidth) {
      sets.scrollLeft = left - 8;
    }
  }

  const hand = $("hand");
  hand.replaceChildren();
  $("hand-title").textContent = board && view.hand ? view.hand.title : "";
  const showHand = view.hand && (board || view.hand.tap);
  for (const c of (showHand ? view.hand.cards : [])) {
    const b = button("", () => send({ card: c.card }), c.cursor ? "cursor" : (view.hand.tap ? "" : "still"));
    b.disabled = !view.hand.tap;
    const rank = document.createElement("b");
    rank.textContent = c.rank;
    const name = document.createElement("span");
    name.textContent = c.name;
    const count = document.createElement("span");
    count.textContent = "×" + c.count;
    b.append(rank, name, count);
    if (c.picked) {
      const p = document.createElement("span");
      p.className = "picked";
      p.textContent = "✓" + c.picked;
      b.appendChild(p);
    }
    b.dataset.card = c.card;
    b.setAttribute("aria-label", c.label + " ×" + c.count);
    b.setAttribute("aria-pressed", c.cursor ? "true" : "false");
    hand.appendChild(b);
  }

  const notice = $("notice");
  notice.textContent = view.notice ? view.notice.text : "";
  notice.className = view.notice ? view.notice.level : "";

  const editor = $("editor");
  if (view.editor) {
    const wasOpen = !editor.hidden;
    editor.hidden = false;
    $("editor-label").textContent = view.editor.label;
    const input = $("editor-input");
    input.maxLength = view.editor.max;
    if (!wasOpen) { input.value = view.editor.text; input.focus(); }
  } else {
    editor.hidden = true;
  }

  const buttons = $("buttons");
  buttons.replaceChildren();
  if (!view.editor) {
    for (const b of view.buttons) {
      const tap = button(b.label, () => send({ key: b.key }), MAIN_KEYS.has(b.key) ? "main" : "");
      if (b.key.length === 1) {
        // The terminal's key, as the screen's own sentences name it ("press s to start").
        const kbd = document.createElement("kbd");
        kbd.textContent = b.key;
        tap.prepend(kbd);
      }
      tap.dataset.key = b.key;
      buttons.appendChild(tap);
    }
  }
  const select = $("lang");
  if (!select.options.length) {
    for (const [tag, name] of view.languages) select.add(new Option(name, tag));
  }
  select.value = view.lang;
}

function sendSize(force) {
  const measure = $("measure");
  const charWidth = measure.getBoundingClientRect().width / 10 || 8;
  const lineHeight = parseFloat(getComputedStyle($("screen")).fontSize) * 1.25 || 16;
  const width = Math.min(document.documentElement.clientWidth, 1100) - 16;
  const cols = Math.max(30, Math.floor(width / charWidth));
  const rows = Math.max(16, Math.floor((window.innerHeight - 220) / lineHeight));
  const size = cols + "x" + rows;
  if (force || size !== lastSize) { lastSize = size; send({ size: [cols, rows] }); }
}

$("join").addEventListener("submit", (event) => { event.preventDefault(); join(false); });
$("watch-button").addEventListener("click", () => join(true));
$("editor").addEventListener("submit", (event) => {
  event.preventDefault();
  send({ text: $("editor-input").value });
  $("editor-input").value = "";
});
$("editor-cancel").addEventListener("click", () => send({ key: "escape" }));
$("again").addEventListener("click", () => { left = false; joined = null; retries = 0; if (ws) ws.close(); connect(); });
$("lang").addEventListener("change", () => {
  store.set("dalmuti.lang", $("lang").value);
  if (ws) ws.close();   // back at once in the new language (the seat is kept)
});
window.addEventListener("resize", () => sendSize(false));
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !ws && !left) { retries = 0; connect(); }
});
connect();
