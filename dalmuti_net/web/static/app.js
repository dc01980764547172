// The web table's page: a thin renderer. The host sends the client model's typed view
// (its schema: view.schema.json), already in the chosen language; this page lays it out
// for touch and sends back intents ({do: ...}). No game rules live here: an intent the
// rules forbid is explained by the model's own checks before anything reaches the table.
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
let retries = 0;            // connections in a row that did not stay up: the next waits longer
// In ms: the first wait before trying again, the longest, and how long a connection stays
// up to count as a working one (the next wait is the first again).
const RETRY = { first: 500, most: 8000, steady: 10000 };
let strings = {};
let helpSections = [];    // the help, in the chosen language (the hello has it)
let local = { help: false, rules: false, chat: false, typing: null };   // what only this page opens
let tableName = "Dalmuti";
let codeRequired = false;
let tableId = null;         // the table this connection's host says it runs (a claim)
let atTable = null;         // the table this page joined: a reconnect elsewhere asks first
let current = null;         // the token of the seat this page holds now
let asking = null;          // {token, nonce} of the seat being asked back
let newSeat = false;        // a new seat was asked for on this connection: its token may come
const refused = new Set();  // tokens of seats this connection's host would not give back
let atStandings = false;    // the final standings are what the player last saw (results closed)
let closing = null;         // the connection the last hand's results were closed again on
let previous = null;        // a seat's connection a new language's replaces, until that one is in
let goneSays = null;        // the page string the "gone" screen says (null: the host's own words)

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
  if (section !== "table") { $("watching").hidden = true; fill("bar-buttons", []); }
}

function status(text, tone) {   // tone: the view's ("error", "warning") or none
  $("status").textContent = text ? capital(text) : "";
  $("status").className = tone === "error" ? "bad" : (tone === "warning" ? "warning" : "");
}

// Where the connection stands, as the view says it (the terminal's words), while it is
// anything but well; the page's own link down, it says so itself (no view can come).
function drawConnection(view) {
  const line = view.connection;
  if (ended() || line.tone === "good") status("");
  else status(line.text, line.tone);
}

function tableUrl() {
  const lang = language();
  return (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/table" +
    (lang ? "?lang=" + encodeURIComponent(lang) : "");
}

function connect() {
  const socket = new WebSocket(tableUrl());
  ws = socket;
  asking = null;
  newSeat = false;
  refused.clear();   // a host that proved nothing cannot make this page drop a seat for good
  // The join waits for the host's hello. The wait before the next try is reset only once
  // this one has stayed up a while: a host that answers, then hangs up at once (a seat
  // given, then nothing), is asked ever more slowly, not every half second for ever.
  let opened = null;
  socket.onopen = () => { opened = Date.now(); };
  socket.onmessage = (event) => {
    if (ws !== socket) return;
    try {
      receive(JSON.parse(event.data));
    } catch (e) {
      // Not JSON, or not what this page can read (another program at the host's address,
      // or a host of another version): said in one sentence, and nothing more is sent to
      // it; the player may join again.
      left = true;
      ws = null;
      socket.close();
      gone((strings && strings.unreadable) || "The host sent something this page cannot read.");
    }
  };
  socket.onclose = () => {
    if (ws !== socket) return;   // an earlier connection, closed after its successor opened
    letGo();
    ws = null;
    asking = null;
    if (opened !== null && Date.now() - opened >= RETRY.steady) retries = 0;
    if (left) return;
    // After the final standings a closed connection loses nothing: the standings stay.
    if (!ended()) status(strings.reconnecting || "…", "error");
    const delay = Math.min(RETRY.most, RETRY.first * 2 ** retries++);
    setTimeout(() => { if (!ws && !left) connect(); }, delay);
  };
}

function ended() {   // the final standings are on the page: the table is over
  const state = last && last.table;
  return !!(state && state.standings.length && !state.results);
}

// What a person typed goes as text: a pasted tab or line end, control character or
// bidirectional override is a space, as the terminal's filter makes it (the table refuses
// a message holding one: protocol/text.py NOT_TEXT; with "u", only lone surrogates match).
const NOT_TEXT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]/gu;
function typed(text) { return text.replace(NOT_TEXT, " "); }

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

// The connection a new language's replaced, closed: the new one is at the seat (the host
// closed it already, "replaced"), or it came to nothing.
function letGo() {
  const old = previous;
  previous = null;
  if (old) old.close();
}

function gone(text, says) {   // says: the page string it is, to be said again in another language
  letGo();
  goneSays = says || null;
  $("gone-text").textContent = text || "";
  show("gone");
}

// The "gone" screen in a new language: the host's hello has the page's words in it. A
// connection for that only, on which nothing is sent (a seat kept while its player steps
// away is not taken back by a change of language); none to a host this page distrusts.
function relabel() {
  if (goneSays === null) return;
  const socket = new WebSocket(tableUrl());
  socket.onmessage = (event) => {
    socket.close();
    if (ws || !left || goneSays === null) return;   // the player went on meanwhile
    try {
      const h = JSON.parse(event.data).hello;
      if (typeof h.strings[goneSays] !== "string") return;
      words(h);
      gone(strings[goneSays], goneSays);
    } catch (e) {
      // not a hello this page can read: the screen stays as it was
    }
  };
}

function ask(problem) {   // the join form, the name filled in: the player decides
  letGo();
  joined = null;
  $("name").value = store.get("dalmuti.name") || "";
  $("join-problem").textContent = problem || "";
  show("join");
  // The name box takes the focus when the form comes, but not from the language menu: a
  // keyboard user choosing a language by typing its name ("Esp") would type the rest of
  // it into their name when the new language's hello brings the form again.
  if (document.activeElement !== $("lang")) $("name").focus();
}

function receive(message) {
  if (message.hello) return hello(message.hello);
  if (message.view) {
    letGo();
    return draw(message.view);
  }
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
    else if (joined && !codeRequired && !ended()) sendJoin();   // a new seat at once, as a terminal takes one
    else ask(strings.seat_gone);   // the code is the player's to give again: none is kept
    return;
  }
  if (message.left) {   // the player's own choice (leave, step away, quit): said as theirs
    left = true;
    joined = null;
    gone(strings.you_left || strings.closed, strings.you_left ? "you_left" : null);
    ws && ws.close();
    return;
  }
  if (message.error) {
    left = true;
    gone(message.error);
  }
}

function words(h) {   // the page's words in the hello's language
  strings = h.strings;
  helpSections = h.help || [];
  if (!$("lang").options.length) for (const [tag, name] of h.languages || []) $("lang").add(new Option(name, tag));
  const tag = h.lang === "zh_Hant" ? "zh-Hant" : h.lang;   // the menu's values are BCP 47 tags
  $("lang").value = tag;
  document.documentElement.lang = tag;
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
}

function hello(h) {
  words(h);
  tableId = typeof h.table_id === "string" ? h.table_id : null;
  codeRequired = !!h.code_required;
  $("code-row").hidden = !codeRequired;
  status("");
  if (joined) {
    // Reconnected: back only to what this page holds at the table it was at. Another
    // table on this address (the one it was at ended) is the player's to join or not.
    // Once the table is over this browser keeps no seat (a new table may open here), but
    // the page still holds the one it had: back to the final standings (and a rematch)
    // after a new language or a dropped link, as a terminal's client goes back to its seat.
    const held = ended() && current ? { token: current, table_id: tableId } : null;
    const kept = !joined.spectator && atTable === tableId && (seatAt(tableId) || held);
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
  const name = typed($("name").value).trim();
  if (!name) { $("join-problem").textContent = strings.empty_name; return; }
  $("join-problem").textContent = "";
  // The code goes with this join only (and a watcher's reconnects): never kept.
  const code = typed($("code").value).trim() || null;
  $("code").value = "";
  store.set("dalmuti.name", name);
  joined = { name: name, code: code, spectator: !!spectator };
  sendJoin();
  show("table");
}


// ---------------------------------------------------------------- drawing the view
// Every name read from a view below is one view.schema.json holds (a test checks).

let last = null;   // the last view, to draw again when this page opens or closes a panel

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined && text !== null) node.textContent = text;
  return node;
}

function button(label, intent, className) {
  const b = el("button", className, label);
  b.type = "button";
  if (intent) {
    b.dataset.do = intent.do;
    b.addEventListener("click", () => send(intent));
  }
  return b;
}

function pageButton(label, onTap, className, name) {   // opens or closes something of this page's
  const b = el("button", className, label);
  b.type = "button";
  b.dataset.do = name;
  b.addEventListener("click", onTap);
  return b;
}

function marks(parent, all) {
  for (const mark of all) parent.appendChild(el("span", mark.tone, mark.text));
}

function fill(id, nodes) {
  const parent = $(id);
  parent.replaceChildren(...nodes);
  return parent;
}

function drawLobby(lobby, view) {
  $("lobby").hidden = !lobby;
  if (!lobby) return;
  $("lobby-heading").textContent = lobby.heading;
  $("lobby-waiting").textContent = lobby.waiting;
  fill("lobby-seats", lobby.seats.map((seat) => {
    const row = el("li", seat.me ? "me" : "");
    const name = el("span", "", seat.name);
    name.id = "seat-" + seat.player;
    row.appendChild(name);
    marks(row, seat.marks);
    // "Remove bot" on each bot's row: said with whose row it is.
    let tool = null;
    if (view.host && seat.bot) tool = button(strings.remove_bot, { do: "remove_bot", player: seat.player }, "small");
    if (view.host && !seat.bot && !seat.host) tool = button(strings.kick, { do: "kick", player: seat.player }, "small");
    if (tool) { tool.setAttribute("aria-describedby", name.id); row.appendChild(tool); }
    return row;
  }));
  // The host player's tools beside what they change: bots under the seats, the rules'
  // switch by their heading (the bar at the bottom keeps ready, start and nothing else).
  const can = new Set(view.can);
  // One button: the model asks which bot (every strategy, each said in a sentence).
  fill("lobby-bots", can.has("add_bot") ? [button(strings.add_bot, { do: "add_bot" })] : []);
  const rulesButton = pageButton(strings.rules, () => { local.rules = !local.rules; redraw(); }, local.rules ? "chosen" : "", "rules");
  rulesButton.setAttribute("aria-pressed", local.rules ? "true" : "false");
  fill("rules-tools", can.has("set_rule") ? [rulesButton] : []);
  $("lobby-watchers").textContent = lobby.watchers || "";
  $("rules-title").textContent = lobby.rules_title;
  $("clocks").textContent = lobby.clocks;
  // The clocks are said in a sentence (#clocks): their rows only where they are changed.
  const rows = lobby.rules.filter((rule) => !rule.clock || (view.host && local.rules));
  fill("rules", rows.map((rule) => {
    const row = el("li", "");
    const label = el("span", "", rule.label);
    label.id = "rule-" + rule.key;
    row.appendChild(label);
    row.appendChild(el("b", rule.on ? "good" : "dim", rule.value));
    if (rule.idle) row.appendChild(el("span", "warning", rule.idle));
    if (view.host && local.rules) {
      // The rule's controls keep together, and each is said with the rule it changes.
      const tools = el("span", "rule-tools");
      if (rule.switch) {
        const b = button(rule.on ? "✓" : "○", { do: "set_rule", key: rule.key, value: !rule.on }, "small");
        b.setAttribute("aria-labelledby", label.id);
        b.setAttribute("aria-pressed", rule.on ? "true" : "false");
        tools.appendChild(b);
      } else {
        tools.append(
          button("−", { do: "step_rule", key: rule.key, up: false }, "small"),
          button("+", { do: "step_rule", key: rule.key, up: true }, "small"),
          pageButton(strings.set, () => { local.typing = rule; redraw(); }, "small", "type_rule"));
        for (const b of tools.children) b.setAttribute("aria-describedby", label.id);
      }
      row.appendChild(tools);
    }
    return row;
  }));
}

function drawResults(results) {
  $("results").hidden = !results;
  if (!results) return;
  $("results-title").textContent = results.title;
  fill("results-head", results.headers.map((text) => el("th", "", text)));
  fill("results-rows", results.rows.map((row) => {
    const tr = el("tr", row.me ? "me" : "");
    for (const text of row.cells) tr.appendChild(el("td", "", text));
    return tr;
  }));
  fill("results-notes", results.notes.map((text) => el("p", "", text)));
  $("results-next").textContent = results.next;
}

function drawTable(state) {
  $("board").hidden = !state;
  if (!state) return;
  $("board-heading").textContent = state.heading;
  fill("seat-head", state.columns.map((text) => el("th", "", text)));
  fill("seat-rows", state.seats.map((seat) => {
    const tr = el("tr", seat.turn ? "turn" : "");
    const who = el("td", "");
    who.appendChild(el("div", seat.me ? "me" : "", (seat.turn ? "▶ " : "") + seat.symbol + " " + seat.name));
    const flags = el("div", "flags");
    marks(flags, seat.flags);
    who.appendChild(flags);
    tr.append(who, el("td", "role", seat.role_name), el("td", "n", String(seat.cards)));
    if (seat.score !== null) tr.appendChild(el("td", "n", String(seat.score)));
    return tr;
  }));
  $("seats").hidden = !!state.results;   // the results say who is where: one table at a time
  $("joining").textContent = state.joining || "";
  $("trick-title").textContent = state.trick_title;
  fill("trick-steps", state.trick.map((play) => el("li", state.trick_current ? "" : "dim", play.text)));
  $("trick").hidden = !!state.results || !state.trick.length;
  drawResults(state.results);
  fill("standings", state.standings.map((row) => {
    const li = el("li", row.me ? "me" : (row.note ? "dim" : ""));
    li.textContent = row.place + " " + row.name + " · " + row.figure + (row.note ? " · " + row.note : "");
    return li;
  }));
  $("standings-title").textContent = strings.final_standings;
  // Once: the final standings a closed table's notice gives are not drawn twice.
  const told = !!(last && last.refusal && last.refusal.standings.length);
  $("standings-title").hidden = !state.standings.length || !!state.results || told;
  $("standings").hidden = !!state.results || told;
  // The table is over: its final standings come first, the seats' last hand under them.
  $("board").classList.toggle("over", !!state.standings.length && !state.results);
}

function drawHand(hand, decision) {
  $("hand-title").textContent = hand ? hand.title : "";
  const taxes = !!(decision && decision.kind === "taxes");
  fill("hand", (hand ? hand.cards : []).map((card) => {
    const tap = !hand.tappable ? null :
      (taxes ? { do: "pick_card", card: card.card } : { do: "point_at", card: card.card });
    const b = button("", tap, card.pointed && !taxes ? "cursor" : (hand.tappable ? "" : "still"));
    b.disabled = !hand.tappable;
    b.dataset.card = card.card;
    // Three lines, spoken as they are shown: "12 Peasant ×3".
    b.append(el("b", "", card.rank), " ", el("span", "", card.name), " ", el("span", "", "×" + card.count));
    // A tax or a gift adds a card a tap: no card is "the" chosen one, so none is pressed.
    if (!taxes) b.setAttribute("aria-pressed", card.pointed ? "true" : "false");
    if (!taxes || !hand.tappable) {
      if (card.picked) b.appendChild(el("span", "picked", "✓" + card.picked));
      return b;
    }
    // A tax or a gift: under each card, a place for the button that takes one back, there
    // once the card is picked; meanwhile the card itself fills it (the style sheet), so
    // that no card moves under a finger and no row has a gap under it. A button of its
    // own, named for what it does: a mark inside the card's button was no button at all
    // for a screen reader.
    const slot = el("span", "slot");
    if (!card.picked) {
      slot.append(b);
      return slot;
    }
    // The ✓ and the − are drawn by the style sheet, not spoken: the name says it all.
    const back = button(String(card.picked), { do: "drop_card", card: card.card }, "take-back");
    back.dataset.card = card.card;
    const name = (strings.take_back || "{card} ({n})").replace("{card}", card.label).replace("{n}", String(card.picked));
    back.setAttribute("aria-label", name);
    back.title = name;
    slot.append(b, back);
    return slot;
  }));
}

function drawDecision(decision) {
  $("prompt").textContent = decision ? decision.prompt : "";
  const selection = decision ? decision.selection : "";   // a live region: said when it changes
  if ($("selection").textContent !== selection) $("selection").textContent = selection;
  const sets = $("sets");
  sets.setAttribute("aria-label", strings.legal_sets || "");   // a group a screen reader names
  const scrolled = sets.scrollLeft;
  let chosen = null;
  fill("sets", (decision ? decision.sets : []).map((set) => {
    const chip = button(set.label, { do: "pick_set", index: set.index }, set.chosen ? "chosen" : "");
    chip.dataset.set = set.index;
    chip.setAttribute("aria-pressed", set.chosen ? "true" : "false");
    if (set.chosen) chosen = chip;
    return chip;
  }));
  sets.scrollLeft = scrolled;
  if (chosen) {
    const left = chosen.offsetLeft - sets.offsetLeft;
    if (left < sets.scrollLeft || left + chosen.offsetWidth > sets.scrollLeft + sets.clientWidth) sets.scrollLeft = left - 8;
  }
  const choices = [];
  if (decision) {
    for (const m of decision.merchants) {
      choices.push(pressed(button(m.label, { do: "pick_merchant", player: m.index }), m.index === decision.merchant));
    }
    for (const p of decision.positions) {
      choices.push(pressed(button(p.label, { do: "pick_position", index: p.index }), p.index === decision.position));
    }
  }
  fill("choices", choices);
}

function pressed(b, on) {   // one of several, the one picked: shown, and said as pressed
  if (on) b.classList.add("chosen");
  b.setAttribute("aria-pressed", on ? "true" : "false");
  return b;
}

function capital(label) {   // a button's word as a button says it: "pass" → "Pass"
  return label.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + label.slice(1);
}

function actionButtons(view) {
  const can = new Set(view.can);
  const state = view.table;
  const decision = state ? state.decision : null;
  const buttons = [];
  // A question's or a refusal's first choice is the one lit: the gentle one ("Step away"
  // before "Leave the table", "Watch instead" before "Quit").
  if (view.question) {
    view.question.choices.forEach((c, i) => buttons.push(button(capital(c.label), { do: "choose", action: c.action }, i ? "" : "main")));
    buttons.push(button(strings.back, { do: "choose", action: "back" }));
    return buttons;
  }
  if (view.refusal) {
    view.refusal.choices.forEach((c, i) => buttons.push(button(capital(c.label), { do: "choose", action: c.action }, i ? "" : "main")));
    return buttons;
  }
  if (decision) {
    if (decision.commit) buttons.push(button(capital(decision.commit), { do: "commit" }, "main"));
    for (const a of decision.answers) buttons.push(button(capital(a.label), { do: "answer", index: a.index }, decision.commit ? "" : "main"));
  }
  if (state && state.results) {
    if (state.results.reading) buttons.push(button(strings.read, { do: "ready", on: true }, "main"));
    buttons.push(button(state.results.last ? strings.final_standings : strings.back_to_table, { do: "close_results" }));
  }
  if (view.lobby && can.has("ready") && view.lobby.ready !== null) {
    buttons.push(button(view.lobby.ready ? strings.not_ready : strings.ready, { do: "ready", on: !view.lobby.ready }, view.lobby.ready ? "" : "main"));
  }
  if (can.has("start")) buttons.push(button(strings.start, { do: "start" }, "main"));
  if (can.has("rematch")) buttons.push(button(strings.rematch, { do: "rematch" }, "main"));
  if (can.has("nudge")) buttons.push(button(strings.nudge, { do: "nudge" }));
  if (can.has("skip")) buttons.push(button(strings.skip, { do: "skip" }));
  if (can.has("auto_pass")) {
    buttons.push(button(view.auto_pass ? strings.auto_pass_on : strings.auto_pass_off, { do: "auto_pass", on: !view.auto_pass }));
  }
  return buttons;
}

// Help and leave stay in the top bar, in sight on every screen of the table; chat sits by
// the log it writes to. A question or a refusal brings its own answers, and none of these.
function barButtons(view) {
  if (view.question || view.refusal || !$("editor").hidden) return [];
  return [
    pageButton(strings.help, () => { local.help = true; redraw(); }, local.help ? "chosen" : "", "help"),
    button(strings.quit, { do: "exit" }),
  ];
}

function logButtons(view) {
  const can = new Set(view.can);
  if (!can.has("chat") || !$("editor").hidden) return [];
  return [pageButton(strings.chat, () => { local.chat = true; redraw(); }, "", "chat")];
}

function drawEditor(view) {
  // A field the model asks for (a join code again), or one of this page's: chat, a rule.
  const editor = $("editor");
  const wasOpen = !editor.hidden;
  let label = null;
  let max = 500;
  if (view.field) { label = view.field.label; max = view.field.max; }
  else if (local.typing) { label = local.typing.field; max = String(local.typing.high).length; }
  else if (local.chat) { label = strings.say; }
  editor.hidden = label === null;
  if (label === null) return;
  $("editor-label").textContent = label;
  const input = $("editor-input");
  input.maxLength = max;
  if (!wasOpen) { input.value = view.field ? view.field.text : ""; input.focus(); }
}

function drawOverlay(view) {
  const overlay = $("overlay");
  const parts = [];
  if (local.help) {
    for (const [title, text] of helpSections) parts.push(el("h3", "heading", title), el("p", "", text));
    parts.push(pageButton(strings.close, () => { local.help = false; redraw(); }, "main", "close"));
  } else if (view.question) {
    parts.push(el("h3", "warning", view.question.title));
    for (const c of view.question.choices) if (c.sentence) parts.push(el("p", "", c.sentence));
  } else if (view.refusal) {
    parts.push(el("h3", "title", view.refusal.title));
    view.refusal.sentences.forEach((text, i) => parts.push(el("p", i ? "" : "error", text)));
    if (view.refusal.standings.length) {
      parts.push(el("h3", "heading", strings.final_standings));
      for (const row of view.refusal.standings) parts.push(el("p", row.note ? "dim" : "", row.place + " " + row.name + " · " + row.figure));
    }
  }
  overlay.replaceChildren(...parts);
  overlay.hidden = !parts.length;
}

// ---------------------------------------------------------------- the log
// The log follows its newest line unless the player scrolled back to read; then a button
// says newer lines are below. Lines are added, not redrawn, so a screen reader hears each
// new one once (#log-lines is a live region).

let logShown = [];       // the lines on the page, as "kind\0text"
let logFollows = true;   // the player has not scrolled back
let logPinned = 0;       // where following left the log: scrolling above it is the player's

function logAtEnd(log) { return log.scrollTop + log.clientHeight >= log.scrollHeight - 4; }

function logToEnd() {
  const log = $("log-lines");
  log.scrollTop = log.scrollHeight;
  logPinned = log.scrollTop;
  logFollows = true;
  $("log-newer").hidden = true;
}

function drawLog(lines) {
  const log = $("log-lines");
  const wanted = lines.map((line) => line.kind + "\0" + line.text);
  // The longest run of the lines shown that the new lines go on from.
  let kept = Math.min(logShown.length, wanted.length);
  while (kept > 0 && !sameRun(logShown, logShown.length - kept, wanted, kept)) kept--;
  const added = wanted.length - kept;
  if (kept === 0 && logShown.length) {
    // All new (another language): read again silently, not announced line by line.
    log.setAttribute("aria-live", "off");
    log.replaceChildren();
    setTimeout(() => log.setAttribute("aria-live", "polite"), 0);
  }
  for (let i = 0; i < logShown.length - kept && log.firstChild; i++) log.firstChild.remove();
  for (const line of lines.slice(kept)) log.appendChild(el("div", line.kind, line.text));
  logShown = wanted;
  $("log-title").textContent = strings.log;
  $("log-newer").textContent = strings.newer || "↓";
  if (logFollows) logToEnd();
  else if (added && !log.hidden) $("log-newer").hidden = false;
}

function sameRun(shown, from, wanted, count) {
  for (let i = 0; i < count; i++) if (shown[from + i] !== wanted[i]) return false;
  return true;
}

$("log-lines").addEventListener("scroll", () => {
  // Only the player scrolls up: a box that shrank or lost lines is followed still.
  const log = $("log-lines");
  if (logAtEnd(log)) { logFollows = true; $("log-newer").hidden = true; }
  else if (log.scrollTop < logPinned - 4) logFollows = false;
});
// The controls' height, for a laptop's log beside them to take the rest.
if (window.ResizeObserver) new ResizeObserver(() => {
  document.documentElement.style.setProperty("--controls", $("controls").offsetHeight + "px");
}).observe($("controls"));
// The log's box shrinks on one's turn: the newest line stays in sight.
if (window.ResizeObserver) new ResizeObserver(() => { if (logFollows) logToEnd(); }).observe($("log-lines"));
$("log-newer").addEventListener("click", logToEnd);
$("log-toggle").addEventListener("click", () => {
  const open = $("log-toggle").getAttribute("aria-expanded") !== "true";
  $("log-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  $("log-lines").hidden = !open;
  if (open) logToEnd();
  else $("log-newer").hidden = true;
});

function redraw() { if (last) draw(last); }

// A redraw replaces the buttons: the one a keyboard or screen reader was on gets the focus
// back, found by what it sends, so a hand can be played from the buttons alone.
function focused() {
  const at = document.activeElement;
  const parent = at && at !== document.body && at.parentElement ? at.parentElement.closest("[id]") : null;
  if (!parent || at.tagName !== "BUTTON") return null;
  return { parent: parent.id, card: at.dataset.card, set: at.dataset.set, do: at.dataset.do };
}

function refocus(was) {
  if (!was || (document.activeElement && document.activeElement !== document.body)) return;
  const parent = $(was.parent);
  if (!parent) return;
  const all = Array.from(parent.querySelectorAll("button"));
  const same = (b) => b.dataset.card === was.card && b.dataset.set === was.set;
  // The same button; after the last of a card was taken back, that card's own.
  const again = all.find((b) => same(b) && b.dataset.do === was.do) ||
    (was.do === "drop_card" ? all.find((b) => same(b) && b.dataset.do !== "drop_card") : undefined);
  if (again && !again.disabled) again.focus({ preventScroll: true });
}

function draw(view) {
  // Back after a reconnect (a new language, a phone that slept): the table stays drawn
  // until the host's first view of it, rather than a blank page for a moment.
  if (view.screen === "connecting" && last && last.screen !== "connecting" && !last.refusal) {
    drawConnection(view);
    return;
  }
  // The last hand's results, closed on this page already: the host's client for it after
  // a new language (or a dropped link) is a new one and shows them again. Closed again at
  // once (once a connection), the standings kept in sight meanwhile.
  const results = view.table && view.table.results;
  if (atStandings && results && results.last && closing !== ws) {
    closing = ws;
    send({ do: "close_results" });
    return;
  }
  const was = focused();
  drawView(view);
  refocus(was);
  atStandings = ended();
}

function drawView(view) {
  last = view;
  show("table");
  drawConnection(view);
  const state = view.table;
  $("watching").textContent = strings.watching;
  $("watching").hidden = !view.watching;
  // A refusal says the table is gone for this page: what was behind it is not drawn.
  drawLobby(view.refusal ? null : view.lobby, view);
  drawTable(view.refusal ? null : state);
  drawOverlay(view);
  const decision = state ? state.decision : null;
  const turn = state && !state.results ? state.turn : "";
  if ($("turn-line").textContent !== turn) $("turn-line").textContent = turn;   // said once
  drawDecision(decision);
  drawHand(state ? state.hand : null, decision);
  // A question first: its answers in sight, the cards back once it is answered.
  const asked = !!(view.question || view.refusal);
  for (const id of ["prompt", "selection", "hand-title", "sets", "choices", "hand"]) $(id).hidden = asked;
  // The results of a hand just over, no cards at all (the hand played out), or the table
  // over: what is left of the cards is no longer anyone's concern.
  const empty = !(state && state.hand && state.hand.cards.length);
  if (state && (state.results || empty || ended()) && !decision) for (const id of ["hand-title", "hand"]) $(id).hidden = true;
  const notice = $("notice");
  notice.textContent = view.notice ? view.notice.text : "";
  notice.className = view.notice ? view.notice.level : "";
  drawEditor(view);
  fill("buttons", $("editor").hidden ? actionButtons(view) : []);
  fill("bar-buttons", barButtons(view));
  fill("log-tools", logButtons(view));
  $("log").hidden = !view.log.length && !$("log-tools").children.length;   // nothing to read or say
  const myTurn = !!(state && state.my_turn);
  if (myTurn && !document.body.classList.contains("my-turn")) {
    // The terminal rings its bell and sets the window title: a phone buzzes, and the
    // tab's title says so for a laptop's browser with the table in another tab.
    if (navigator.vibrate) navigator.vibrate(80);
    $("trick").scrollIntoView({ block: "nearest" });   // what is to beat, in sight
  }
  document.body.classList.toggle("my-turn", myTurn);
  // Taxes, a gift: a whole hand to pick from and no trick to watch (the style sheet gives
  // the controls more of the screen).
  document.body.classList.toggle("picking", !!(decision && decision.kind === "taxes" && myTurn));
  // The lobby: no hand to hold, the seats and rules want the room (a phone on its side).
  document.body.classList.toggle("in-lobby", !!view.lobby && !view.refusal);
  document.title = (myTurn ? "▶ " : "") + tableName;
  drawLog(view.log);   // last: the log's box has its size for this view
}

$("join").addEventListener("submit", (event) => { event.preventDefault(); join(false); });
$("watch-button").addEventListener("click", () => join(true));
$("editor").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = typed($("editor-input").value);
  $("editor-input").value = "";
  if (last && last.field) send({ do: "give_code", text: text });
  else if (local.typing) send({ do: "type_rule", key: local.typing.key, text: text });
  else if (local.chat) send({ do: "chat", text: text });
  local.typing = null;
  local.chat = false;
  redraw();
});
$("editor-cancel").addEventListener("click", () => {
  if (last && last.field) send({ do: "cancel_form" });
  local.typing = null;
  local.chat = false;
  $("editor").hidden = true;
  redraw();
});
$("again").addEventListener("click", () => { left = false; joined = null; retries = 0; if (ws) ws.close(); connect(); });
$("lang").addEventListener("change", () => {
  store.set("dalmuti.lang", $("lang").value);
  retries = 0;   // the player's own doing: back at once, however often
  if (!ws) {   // (a try to come is made in the new language)
    if (left) relabel();
    return;
  }
  // Back at once in the new language (the seat is kept), the old connection closed
  // quietly: the player's choice, not a connection lost. A seat's stays open until the
  // new one is at the seat (the host then closes it: "replaced"), so that the other
  // players are not told of a drop and a return; a watcher's goes at once.
  const old = ws;
  ws = null;
  letGo();
  if (joined && !joined.spectator && current) previous = old;
  else old.close();
  connect();
});
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible" && !ws && !left) { retries = 0; connect(); }
});
connect();
