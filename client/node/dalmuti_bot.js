#!/usr/bin/env node
// A dalmuti-net bot for Node.js, written from PROTOCOL.md alone (needs @msgpack/msgpack).
//
//   node dalmuti_bot.js HOST[:PORT] [--name NAME] [--code CODE]
//
// It takes a seat, answers every decision the host sends (shedding its worst cards
// first), keeps the connection alive with heartbeats, and exits when the table ends. If
// the connection drops it takes its seat back, proving it holds the seat's resume token
// without ever sending it (PROTOCOL.md, "Taking a seat back").

import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import net from "node:net";
import { decode, encode } from "@msgpack/msgpack";

const PROTOCOL_VERSION = 2;
const DEFAULT_PORT = 7341;
const MAX_FRAME_BYTES = 64 * 1024;
const JESTER = 13;
const SOFTWARE = "dalmuti-example-node/1.0";
const RECONNECT_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

// ------------------------------------------------------------------ choosing

// Shed the worst cards first: the set of the worst rank, the fewest Jesters used.
function choosePlay(decision) {
  const sets = decision.sets;
  if (sets.length === 0) return { type: "pass" };
  if (decision.to_beat === null) {
    // Lead the worst rank held, all of it (a lone Jester lead is kept for last).
    const ranked = sets.some((s) => s.rank !== JESTER) ? sets.filter((s) => s.rank !== JESTER) : sets;
    const worst = Math.max(...ranked.map((s) => s.rank));
    let group = ranked.filter((s) => s.rank === worst && s.jesters === 0);
    if (group.length === 0) group = ranked;
    return { type: "play", set: maxBy(group, (s) => [s.count]) };
  }
  return { type: "play", set: maxBy(sets, (s) => [s.rank, -s.jesters]) };
}

// Give the Peon the worst cards, keeping the Jesters while anything else is left.
function chooseTax(decision) {
  const plain = decision.hand.filter((card) => card !== JESTER);
  const pool = plain.length >= decision.count ? plain : decision.hand;
  const sorted = [...pool].sort((a, b) => a - b);
  return { type: "tax", cards: sorted.slice(sorted.length - decision.count) };
}

// The answer to one decision, or null for a kind this bot does not know.
function answer(decision, myPosition) {
  switch (decision.kind) {
    case "play":
      return choosePlay(decision);
    case "tax":
      return chooseTax(decision);
    case "revolution":
      // Worth it below the Dalmutis (no taxes to pay), and always for the Greater Peon.
      return { type: "revolution", declare: decision.greater || (myPosition !== null && myPosition >= 2) };
    case "exchange":
      return { type: "exchange", merchant: null, card: null };
    case "misdeal":
      return { type: "misdeal", choice: "intended" };
    case "placement":
      // The newcomer as the lowest Merchant: everyone else keeps their rank.
      return { type: "place", position: Math.max(...decision.positions) };
    default:
      return null;
  }
}

function maxBy(items, key) {
  let best = items[0];
  for (const item of items.slice(1)) {
    const a = key(item);
    const b = key(best);
    const index = a.findIndex((value, i) => value !== b[i]);
    if (index >= 0 && a[index] > b[index]) best = item;
  }
  return best;
}

// ------------------------------------------------------------------ taking a seat back

// The seat's name, derived one-way from its token: safe to send to any host.
function seatId(token) {
  return createHash("sha256").update(Buffer.concat([Buffer.from("dalmuti-net seat id\0"), Buffer.from(token)])).digest("hex").slice(0, 32);
}

// HMAC-SHA256 keyed by the token over the label, the table id, the seat id and both nonces,
// joined by zero bytes; label is "host" or "client".
function proof(label, token, tableId, clientNonce, hostNonce) {
  const parts = [`dalmuti-net ${label} proof`, tableId, seatId(token), clientNonce, hostNonce];
  return createHmac("sha256", Buffer.from(token)).update(parts.join("\0")).digest("hex");
}

// ------------------------------------------------------------------ the session

class Bot {
  constructor(socket, name, code) {
    this.socket = socket;
    this.token = null; // the seat's secret: never sent, never shown
    this.tableId = null;
    this.nonce = null; // ours, while taking the seat back
    this.name = name;
    this.code = code;
    this.buffer = Buffer.alloc(0);
    this.player = null;
    this.order = [];
    this.seq = 0;
    this.heartbeatMs = 5000;
    this.lastSent = Date.now();
    this.decisions = 0;
    this.answered = undefined; // the decision_id of our last answer
    this.done = false;
  }

  send(message) {
    const body = encode(message);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length);
    this.socket.write(Buffer.concat([header, Buffer.from(body)]));
    this.lastSent = Date.now();
  }

  hello() {
    const hello = { type: "hello", version: PROTOCOL_VERSION, name: this.name, role: "player", software: SOFTWARE };
    if (this.code !== null) hello.code = this.code;
    if (this.token !== null) {
      this.nonce = randomBytes(16).toString("hex");
      hello.resume = { seat: seatId(this.token), nonce: this.nonce };
    }
    this.send(hello);
  }

  // One connection: a new seat, or (with a token) the same seat taken back.
  start(socket) {
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    if (this.token === null) this.hello();
    else this.send({ type: "about" }); // which table is this?
    clearInterval(this.timer);
    this.timer = setInterval(() => {
      if (Date.now() - this.lastSent >= this.heartbeatMs) this.send({ type: "heartbeat" });
    }, 250);
  }

  stop(status) {
    this.done = true;
    clearInterval(this.timer);
    process.exitCode = status;
    this.socket.end();
  }

  // Frames: a 4-byte big-endian length, then one msgpack map.
  receive(data) {
    this.buffer = Buffer.concat([this.buffer, data]);
    while (!this.done && this.buffer.length >= 4) {
      const size = this.buffer.readUInt32BE(0);
      if (size === 0 || size > MAX_FRAME_BYTES) {
        console.error(`the host sent a frame of ${size} bytes`);
        this.stop(1);
        return;
      }
      if (this.buffer.length < 4 + size) return;
      const message = decode(this.buffer.subarray(4, 4 + size));
      this.buffer = this.buffer.subarray(4 + size);
      if (message !== null && typeof message === "object" && typeof message.type === "string") {
        this.handle(message);
      }
    }
  }

  // The host could not prove it holds our seat: nothing more is sent to it.
  notTheTable(why) {
    console.error(`dalmuti_bot: the host is not the table it claims: ${why}`);
    this.stop(1);
  }

  prove(challenge) {
    // Check the host's proof first; only then prove ours (on this connection only).
    if (this.token === null || this.nonce === null) return this.notTheTable("a challenge not asked for");
    const expected = Buffer.from(proof("host", this.token, this.tableId, this.nonce, challenge.nonce));
    const given = Buffer.from(String(challenge.proof));
    if (challenge.nonce === this.nonce || expected.length !== given.length || !timingSafeEqual(expected, given)) {
      return this.notTheTable("its proof of the seat is wrong");
    }
    const mine = proof("client", this.token, this.tableId, this.nonce, challenge.nonce);
    this.nonce = null;
    this.send({ type: "prove", proof: mine });
  }

  handle(message) {
    switch (message.type) {
      case "about":
        if (message.table_id !== this.tableId) this.notTheTable("another table answers there now");
        else this.hello();
        return;
      case "challenge":
        this.prove(message);
        return;
      case "welcome":
        if (this.nonce !== null) return this.notTheTable("it let this bot in without proving it holds the seat");
        if (message.token !== null && message.token !== undefined) {
          this.token = message.token; // a new seat (a seat taken back is sent none)
          this.tableId = message.table_id;
        }
        this.answered = undefined; // an answer cut off with the last connection is owed again
        this.failures = 0;
        this.player = message.player;
        if (message.limits && message.limits.heartbeat_interval_ms) {
          this.heartbeatMs = message.limits.heartbeat_interval_ms;
        }
        return;
      case "snapshot":
        this.seq = message.seq;
        if (message.game) this.order = message.game.order;
        if (message.decision) this.decide(message.decision);
        return;
      case "decision":
        this.decide(message);
        return;
      case "error":
        if (message.code !== "stale_decision") {
          // stale: a second answer to a decision already answered, harmless
          console.error(`host error ${message.code}: ${message.message}`);
          this.answered = undefined; // refused: the decision is still owed
        }
        if (message.fatal) this.stop(1);
        else this.send({ type: "snapshot_request" }); // the decision comes again
        return;
      case "goodbye":
        console.log(`the host said goodbye: ${message.reason}`);
        this.stop(0);
        return;
      default:
        if ("seq" in message) this.event(message);
      // heartbeat, ack, table, chat and anything unknown: nothing to do
    }
  }

  event(message) {
    if (!Number.isInteger(message.seq) || message.seq <= this.seq) return; // already in the snapshot
    if (message.seq > this.seq + 1) this.send({ type: "snapshot_request" }); // missed something
    this.seq = message.seq;
    if (["hand_started", "roles_mirrored", "seating_settled"].includes(message.type)) {
      this.order = message.order;
    } else if (message.type === "table_ended") {
      console.log(`table ended (${message.reason}) after ${this.decisions} decisions; standings:`);
      for (const [player, score, place] of message.standings) {
        const me = player === this.player ? "  <- this bot" : "";
        console.log(`  ${place}. player ${player}: ${score} points${me}`);
      }
      this.send({ type: "goodbye", reason: "the table ended" });
      this.stop(0);
    }
  }

  decide(decision) {
    const decisionId = decision.decision_id;
    if (decisionId !== undefined && decisionId === this.answered) return; // crossed our answer
    const position = this.order.indexOf(this.player);
    const reply = answer(decision, position >= 0 ? position : null);
    if (reply !== null) {
      this.decisions += 1;
      this.answered = decisionId;
      if (decisionId !== undefined) reply.decision_id = decisionId; // a second answer: harmless
      this.send(reply);
    }
  }
}

function parseArgs(argv) {
  const options = { address: "127.0.0.1", name: "Node bot", code: null };
  for (let i = 0; i < argv.length; i += 1) {
    if (argv[i] === "--name") options.name = argv[++i];
    else if (argv[i] === "--code") options.code = argv[++i];
    else options.address = argv[i];
  }
  const parts = options.address.split(":");
  options.host = parts.length === 2 ? parts[0] : options.address;
  options.port = parts.length === 2 ? Number(parts[1]) : DEFAULT_PORT;
  return options;
}

const options = parseArgs(process.argv.slice(2));
const bot = new Bot(null, options.name, options.code);
bot.failures = 0;

function connect() {
  const socket = net.createConnection({ host: options.host, port: options.port });
  socket.on("connect", () => bot.start(socket));
  socket.on("data", (data) => bot.receive(data));
  socket.on("error", (error) => {
    bot.lastError = error.message;
  });
  socket.on("close", () => {
    clearInterval(bot.timer);
    if (bot.done || process.exitCode !== undefined) return;
    if (bot.token === null) {
      // No seat yet: nothing to take back.
      console.error(`dalmuti_bot: ${bot.lastError || "the host closed the connection"}`);
      process.exitCode = 1;
    } else if (bot.failures >= RECONNECT_DELAYS_MS.length) {
      console.error("dalmuti_bot: the host did not come back");
      process.exitCode = 1;
    } else {
      console.log(`connection lost (${bot.lastError || "the host closed the connection"}); taking the seat back`);
      bot.lastError = null;
      setTimeout(connect, RECONNECT_DELAYS_MS[bot.failures]);
      bot.failures += 1;
    }
  });
}

connect();
