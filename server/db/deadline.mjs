// Plain JavaScript (typed by deadline.d.mts): the embedded database's worker thread
// (pglite-worker.mjs) loads it from the file system, outside the server's bundle.

/**
 * A wall-clock bound on the statements of one transaction on the embedded database.
 *
 * PGlite runs PostgreSQL in one JavaScript thread (the embedded database's worker, or the server's
 * own), so `statement_timeout` never fires there: its timer is a JavaScript callback that cannot
 * run while a statement does. What does run during a
 * statement is PostgreSQL's clock, a JavaScript import that the executor calls at every plan node
 * when a query is instrumented (auto_explain with `log_analyze` and `log_timing`, which never logs
 * here). The clock is wrapped so that past the deadline it sets PostgreSQL's own cancel flags
 * (`InterruptPending`, `QueryCancelPending`) in the WebAssembly memory: the next interrupt check
 * cancels the statement (SQLSTATE 57014) and the transaction rolls back as on PostgreSQL.
 */

/**
 * @typedef {object} Guard
 * @property {WebAssembly.Memory} memory
 * @property {number} deadline
 * @property {number[]} flags
 * @property {number} calls While armed, the clock is read once per CLOCK_EVERY calls and `last` repeated between.
 * @property {bigint} [last]
 * @property {DataView} [view]
 */

/** @type {WeakMap<WebAssembly.Memory, Guard>} */
const guards = new WeakMap();
/** The timings auto_explain takes are never used: reading the real clock at every plan node made tight joins several times slower. */
const CLOCK_EVERY = 64;
const MONOTONIC = 1;
let installed = false;

/** @typedef {(id: number, precision: bigint, at: number) => number} ClockTimeGet */

/**
 * PGlite's buffer pool. initdb writes PostgreSQL's default, 128 MB, and PGlite zero-fills it inside
 * its WebAssembly memory at start: all of it resident in the server for its whole life (a
 * WebAssembly memory never shrinks). Pages it does not hold are read from the operating system's
 * page cache, which the server's resident memory does not count. See docs/benchmarks.md, "Memory".
 */
export const EMBEDDED_SHARED_BUFFERS = "32MB";

/**
 * Opens PGlite (`dataDir` "memory" for none) with its clock wrapped and auto_explain loaded, which
 * instruments only the transactions of `boundedTransaction`.
 */
export async function openCancellable(dataDir, parsers, sharedBuffers = EMBEDDED_SHARED_BUFFERS) {
  const [{ PGlite }, { auto_explain }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite/contrib/auto_explain"),
  ]);
  installDeadlines();
  const startParams = [...PGlite.defaultStartParams, "-c", `shared_buffers=${sharedBuffers}`];
  const options = { parsers, extensions: { auto_explain }, startParams };
  const pglite = dataDir === "memory" ? new PGlite(options) : new PGlite(dataDir, options);
  await pglite.waitReady;
  await pglite.exec("LOAD 'auto_explain'");
  return pglite;
}

/** Wraps the clock of every PGlite instantiated from now on (idempotent). */
function installDeadlines() {
  if (installed) return;
  installed = true;
  const instantiate = WebAssembly.instantiate.bind(WebAssembly);
  /** @type {(source: any, imports?: WebAssembly.Imports) => Promise<any>} */
  const wrapped = (source, imports) => {
    const env = imports?.env;
    const memory = env?.memory;
    if (memory instanceof WebAssembly.Memory && typeof env?.clock_time_get === "function" && typeof env._setitimer_js === "function") {
      const guard = guards.get(memory) ?? { memory, deadline: Infinity, flags: [], calls: 0 };
      guards.set(memory, guard);
      for (const space of [imports.env, imports.wasi_snapshot_preview1]) {
        if (typeof space?.clock_time_get === "function" && !space.clock_time_get.guarded)
          space.clock_time_get = guarded(guard, space.clock_time_get);
      }
    }
    return instantiate(source, imports);
  };
  WebAssembly.instantiate = wrapped;
}

/**
 * @param {Guard} guard
 * @param {ClockTimeGet} clock
 * @returns {ClockTimeGet}
 */
function guarded(guard, clock) {
  /** @type {ClockTimeGet} */
  const wrapped = (id, precision, at) => {
    if (guard.deadline === Infinity || id !== MONOTONIC) return clock(id, precision, at);
    if (guard.calls++ % CLOCK_EVERY !== 0 && guard.last !== undefined) {
      if (guard.view?.buffer !== guard.memory.buffer) guard.view = new DataView(guard.memory.buffer);
      guard.view.setBigInt64(at, guard.last, true);
      return 0;
    }
    const result = clock(id, precision, at);
    if (guard.view?.buffer !== guard.memory.buffer) guard.view = new DataView(guard.memory.buffer);
    guard.last = guard.view.getBigInt64(at, true);
    if (performance.now() > guard.deadline) setFlags(guard, 1);
    return result;
  };
  return Object.assign(wrapped, { guarded: true });
}

/** @param {Guard} guard @param {number} value */
function setFlags(guard, value) {
  const view = new DataView(guard.memory.buffer);
  for (const at of guard.flags) view.setInt32(at, value, true);
}

/** auto_explain instruments every plan node (so the clock runs) and, with this threshold, never logs. */
const INSTRUMENTED = `SELECT set_config('auto_explain.log_min_duration', '2147483647', true),
  set_config('auto_explain.log_analyze', 'on', true), set_config('auto_explain.log_timing', 'on', true)`;

/** @type {WeakMap<object, Promise<unknown>>} */
const queues = new WeakMap();

/**
 * Runs `fn` in a transaction of `pglite` that is rolled back, its statements cancelled once `ms`
 * have passed. One such transaction at a time per database: others wait here, not in the
 * database's queue, so a write (ingest) waits for one of them at most.
 */
export function boundedTransaction(pglite, ms, fn) {
  const run = async () =>
    pglite.transaction(async (tx) => {
      await tx.query(INSTRUMENTED);
      const result = await withDeadline(pglite, ms, () => fn(tx));
      await tx.rollback();
      return result;
    });
  const turn = (queues.get(pglite) ?? Promise.resolve()).then(run, run);
  queues.set(
    pglite,
    turn.catch(() => undefined),
  );
  return turn;
}

/**
 * @template T
 * @param {import("@electric-sql/pglite").PGlite} pglite
 * @param {number} ms
 * @param {() => Promise<T>} fn
 * @returns {Promise<T>}
 */
async function withDeadline(pglite, ms, fn) {
  /** @type {{ wasmMemory: WebAssembly.Memory, _InterruptPending: number, _QueryCancelPending: number }} */
  const mod = /** @type {any} */ (pglite).mod;
  const guard = guards.get(mod.wasmMemory);
  if (!guard) throw new Error("The embedded database was opened before installDeadlines(): a query could not be cancelled.");
  guard.flags = [mod._InterruptPending, mod._QueryCancelPending];
  guard.calls = 0;
  guard.last = undefined;
  guard.deadline = performance.now() + ms;
  try {
    return await fn();
  } finally {
    guard.deadline = Infinity;
    // A deadline that passed as the last statement ended must not cancel the next one.
    setFlags(guard, 0);
  }
}
