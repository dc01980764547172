#!/usr/bin/env node
// A dalmuti-net bot for Node.js, written from PROTOCOL.md alone (needs @msgpack/msgpack).
//
//   node dalmuti_bot.js HOST[:PORT] [--name NAME] [--code CODE]
//
// It takes a seat, answers every decision the host sends (shedding its worst cards
// first), keeps the connection alive with heartbeats, and exits when the table ends.

import net from "node:net";
import { decode, encode } from "@msgpack/msgpack";

const PROTOCOL_VERSION = 2;
const DEFAULT_PORT = 7341;
const MAX_FRAME_BYTES = 64 * 1024;
const JESTER = 13;
const SOFTWARE = "dalmuti-example-node/1.0";

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

// ------------------------------------------------------------------ the session

class Bot {
  constructor(socket, name, code) {
    this.socket = socket;
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

  start() {
    const hello = { type: "hello", version: PROTOCOL_VERSION, name: this.name, role: "player", software: SOFTWARE };
    if (this.code !== null) hello.code = this.code;
    this.send(hello);
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

  handle(message) {
    switch (message.type) {
      case "welcome":
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
const socket = net.createConnection({ host: options.host, port: options.port });
const bot = new Bot(socket, options.name, options.code);
socket.on("connect", () => bot.start());
socket.on("data", (data) => bot.receive(data));
socket.on("error", (error) => {
  console.error(`dalmuti_bot: ${error.message}`);
  process.exitCode = 1;
});
socket.on("close", () => {
  clearInterval(bot.timer);
  if (!bot.done && process.exitCode === undefined) {
    console.error("dalmuti_bot: the host closed the connection");
    process.exitCode = 1;
  }
});
