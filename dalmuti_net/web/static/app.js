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
const SEAT_KEY = "dalmuti.seat." + location.host;   // this table's resume token, kept here
const MAIN_KEYS = new Set(["enter"]);

let ws = null;
let joined = null;          // the join message, once the player gave a name
let left = false;           // the player left: no reconnecting
let retries = 0;
let strings = {};
let lastSize = "";
let tableName = "Dalmuti";

function seat() {
  try { return JSON.parse(store.get(SEAT_KEY) || "null"); } catch (e) { return null; }
}

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
  ws = new WebSocket(url);
  ws.onopen = () => { retries = 0; sendSize(true); if (joined) send({ join: withSeat(joined) }); };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    ws = null;
    if (left) return;
    status(strings.reconnecting || "…", true);
    const delay = Math.min(8000, 500 * 2 ** retries++);
    setTimeout(() => { if (!ws && !left) connect(); }, delay);
  };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function withSeat(join) {
  const kept = seat();
  const message = Object.assign({}, join, { lang: language() || join.lang || "" });
  if (kept && !join.spectator) { message.token = kept.token; message.table_id = kept.table_id; }
  return message;
}

function receive(message) {
  if (message.hello) return hello(message.hello);
  if (message.view) return draw(message.view);
  if ("token" in message) {
    store.set(SEAT_KEY, message.token ? JSON.stringify({ token: message.token, table_id: message.table_id }) : null);
    return;
  }
  if (message.left) {
    left = true;
    joined = null;
    $("gone-text").textContent = strings.closed || "";
    show("gone");
    ws && ws.close();
    return;
  }
  if (message.error) {
    left = true;
    $("gone-text").textContent = message.error;
    show("gone");
  }
}

function hello(h) {
  strings = h.strings;
  document.documentElement.lang = h.lang === "zh_Hant" ? "zh-Hant" : h.lang;
  $("table-name").textContent = h.table;
  tableName = h.table;
  document.title = h.table;
  $("name-label").textContent = strings.name;
  $("code-label").textContent = strings.code;
  $("join-button").textContent = strings.join;
  $("watch-button").textContent = strings.watch;
  $("again").textContent = strings.again;
  $("lang").setAttribute("aria-label", strings.language);
  $("editor-send").textContent = strings.send;
  $("editor-cancel").textContent = strings.cancel;
  $("code-row").hidden = !h.code_required;
  status("");
  if (joined) return;   // reconnected: the join was sent on open
  const kept = seat();
  const name = store.get("dalmuti.name");
  if (kept && name) {    // this browser has a seat here: take it back at once
    joined = { name: name, code: store.get("dalmuti.code." + location.host) || null };
    send({ join: withSeat(joined) });
    return;
  }
  $("name").value = name || "";
  show("join");
  $("name").focus();
}

function join(spectator) {
  const name = $("name").value.trim();
  if (!name) { $("join-problem").textContent = strings.empty_name; return; }
  $("join-problem").textContent = "";
  const code = $("code").value.trim() || null;
  store.set("dalmuti.name", name);
  store.set("dalmuti.code." + location.host, code);
  joined = { name: name, code: code, spectator: !!spectator };
  send({ join: withSeat(joined) });
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
