// The embedded database in a worker thread (server/db/remote-pglite.ts starts it and speaks to it).
// A plain .mjs file so the built server and the tests load the same file outside any bundle.
//
// PGlite runs PostgreSQL (WebAssembly) in the thread that calls it. Here, that is this thread: the
// server's own thread keeps answering HTTP, parsing payloads and building queries on the other core
// while statements run. Each message names one call on PGlite or on one of its open transactions;
// the answer carries the same id. A transaction stays open here until the server says how it ends.
import { parentPort, workerData } from "node:worker_threads";
import { messages } from "@electric-sql/pglite";
import { boundedTransaction, openCancellable } from "./deadline.mjs";

/** @type {{ dataDir: string, sharedBuffers?: string, textTypes: number[] }} */
const { dataDir, sharedBuffers, textTypes } = workerData;
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

/** @param {string} value */
const asText = (value) => value;
/** @param {number[]} oids */
const readAsText = (oids) => Object.fromEntries(oids.map((oid) => [oid, asText]));

/** The server's `parsers` options, by the id it gave them: their types come back as text, for it to parse. */
const parserSets = new Map();
/** Open transactions by id: the PGlite transaction, and how to end it. */
const open = new Map();
/** Thrown into a transaction's callback when the server's side of it failed: PGlite rolls back. */
const ABORT = Symbol("abort");
let nextTransaction = 1;

/** @param {unknown} error What the server rebuilds: every own field of PGlite's error, and its class. */
function serialised(error) {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields = {};
  for (const [key, value] of Object.entries(error)) {
    // The server re-attaches the call's own params and options; the rest is data.
    if (key !== "params" && key !== "queryOptions" && typeof value !== "function") fields[key] = value;
  }
  return { message: error.message, database: error instanceof messages.DatabaseError, fields };
}

const answer = (id, result) => port.postMessage({ id, result });
const fail = (id, error) => port.postMessage({ id, error: serialised(error) });

function options(m) {
  if (m.parsers !== undefined && m.textOids) parserSets.set(m.parsers, readAsText(m.textOids));
  if (m.rowMode === undefined && m.parsers === undefined && m.paramTypes === undefined) return undefined;
  return { rowMode: m.rowMode, parsers: m.parsers === undefined ? undefined : parserSets.get(m.parsers), paramTypes: m.paramTypes };
}

function target(m) {
  if (m.tx === undefined) return pglite;
  const entry = open.get(m.tx);
  if (!entry) throw new Error("The transaction has ended.");
  return entry.tx;
}

function begin(m) {
  const id = nextTransaction++;
  let started = false;
  const entry = {};
  const hold = (tx) =>
    new Promise((resolve, reject) => {
      started = true;
      entry.tx = tx;
      entry.end = (commit) => (commit ? resolve(undefined) : reject(ABORT));
      open.set(id, entry);
      answer(m.id, id);
    });
  entry.done = (m.bound === undefined ? pglite.transaction(hold) : boundedTransaction(pglite, m.bound, hold)).finally(() =>
    open.delete(id),
  );
  entry.done.catch((error) => {
    if (!started) fail(m.id, error);
  });
}

function end(m) {
  const entry = open.get(m.tx);
  if (!entry) return fail(m.id, new Error("The transaction has ended."));
  entry.end(m.commit);
  entry.done.then(
    () => answer(m.id),
    (error) => (error === ABORT ? answer(m.id) : fail(m.id, error)),
  );
}

async function handle(m) {
  switch (m.op) {
    case "query":
      return target(m).query(m.text, m.params, options(m));
    case "exec":
      return target(m).exec(m.text, options(m));
    case "rollback":
      return target(m).rollback();
    case "close":
      await pglite.close();
      return undefined;
    default:
      throw new Error(`Unknown call ${m.op}`);
  }
}

let pglite;
try {
  pglite = await openCancellable(dataDir, readAsText(textTypes), sharedBuffers);
  port.postMessage({ ready: Object.keys(pglite.parsers).map(Number) });
} catch (error) {
  port.postMessage({ ready: false, error: serialised(error) });
}

port.on("message", (m) => {
  if (m.op === "begin") return begin(m);
  if (m.op === "end") return end(m);
  handle(m).then(
    (result) => answer(m.id, result),
    (error) => fail(m.id, error),
  );
});
