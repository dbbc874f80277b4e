import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";

type Parsers = NonNullable<QueryOptions["parsers"]>;

/** The part of PGlite the embedded database uses, and a bounded transaction (server/db/deadline.mjs) run where PGlite is. */
export interface PGliteHandle extends Pick<PGlite, "query" | "exec" | "transaction" | "close"> {
  /** The types PGlite parses unless told otherwise (its own, and the array types it found). */
  readonly parsers: Parsers;
  bounded<T>(ms: number, fn: (tx: Transaction) => Promise<T>): Promise<T>;
}

/**
 * Loaded by path rather than imported: the worker runs as its own module graph (PGlite, outside the
 * server's bundle, hence the bundler told to ignore it), from the project root both the built
 * server and the tests run in.
 */
const WORKER_FILE = path.join(/* turbopackIgnore: true */ process.cwd(), "server/db/pglite-worker.mjs");

const YOUNG_GENERATION_MB = 8;

/** An error as the worker sends it: PGlite's own fields, and whether it was a DatabaseError. */
interface SentError {
  message: string;
  database?: boolean;
  fields: Record<string, unknown>;
}

interface Call {
  op: "query" | "exec" | "begin" | "end" | "rollback" | "close";
  tx?: number;
  [key: string]: unknown;
}

/**
 * PGlite in a worker thread (server/db/pglite-worker.mjs), behind the same calls: its statements run
 * on the other core while this thread answers requests. Values cross by structured clone, so what
 * cannot (functions) is declared instead: the `parsers` a call passes are registered once by id, the
 * worker hands their types back as text, and they are applied here, as PGlite would have. A
 * transaction is held open in the worker until its callback here has settled.
 */
export async function openInWorker(dataDir: string, sharedBuffers: string | undefined, textTypes: number[]): Promise<PGliteHandle> {
  const { messages } = await import("@electric-sql/pglite");
  const worker = new Worker(/* turbopackIgnore: true */ WORKER_FILE, {
    workerData: { dataDir, sharedBuffers, textTypes },
    // What the thread allocates lives for one call (a statement's parameters, its rows before they
    // are sent): a small young generation keeps that from adding V8's default 48 MB to the server.
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  let stopped: Error | undefined;
  let nextCall = 1;
  const parserIds = new WeakMap<Parsers, number>();
  let nextParsers = 1;

  let ready!: (m: { ready: number[] | false; error?: SentError }) => void;
  let failed!: (error: Error) => void;
  let exited!: (code: number) => void;
  const knownTypes = await new Promise<number[]>((resolve, reject) => {
    ready = (m) => (m.ready ? resolve(m.ready) : reject(rebuilt(m.error!)));
    failed = reject;
    exited = (code) => reject(new Error(`The embedded database's thread exited (${code}) while opening.`));
    worker.once("message", ready).once("error", failed).once("exit", exited);
  }).finally(() => worker.off("message", ready).off("error", failed).off("exit", exited));

  const stop = (error: Error) => {
    stopped ??= error;
    for (const { reject } of pending.values()) reject(stopped);
    pending.clear();
  };
  worker.on("error", (error) => stop(new Error(`The embedded database's thread failed: ${error.message}`, { cause: error })));
  worker.on("exit", (code) => stop(new Error(`The embedded database's thread has stopped (exit ${code}).`)));
  worker.on("message", (m: { id: number; result?: unknown; error?: SentError }) => {
    const call = pending.get(m.id);
    if (!call) return;
    pending.delete(m.id);
    // Only a call under way keeps the process alive, as PGlite in this thread would (it holds no handle).
    if (pending.size === 0) worker.unref();
    if (m.error) call.reject(m.error);
    else call.resolve(m.result);
  });
  worker.unref();

  function call(message: Call): Promise<unknown> {
    if (stopped) return Promise.reject(stopped);
    const id = nextCall++;
    if (pending.size === 0) worker.ref();
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...message, id });
    });
  }

  /** The worker's error rebuilt as PGlite throws it (a DatabaseError carries code, detail, position…). */
  function rebuilt(sent: SentError, params?: unknown[], options?: QueryOptions): Error {
    const error = sent.database ? new messages.DatabaseError(sent.message, 0, "error") : new Error(sent.message);
    Object.assign(error, sent.fields);
    if ("query" in sent.fields) Object.assign(error, { params, queryOptions: options });
    return error;
  }

  /** A call's options as the worker takes them: its parsers by id (the types they cover sent the first time). */
  function declared(options: QueryOptions | undefined) {
    if (!options) return {};
    if (options.serializers || options.blob || options.onNotice)
      throw new Error("serializers, blob and onNotice cannot cross to the embedded database's thread.");
    const { rowMode, paramTypes, parsers } = options;
    if (!parsers) return { rowMode, paramTypes };
    let id = parserIds.get(parsers);
    if (id !== undefined) return { rowMode, paramTypes, parsers: id };
    id = nextParsers++;
    parserIds.set(parsers, id);
    return { rowMode, paramTypes, parsers: id, textOids: Object.keys(parsers).map(Number) };
  }

  async function run<R>(message: Call, params: unknown[] | undefined, options: QueryOptions | undefined): Promise<R> {
    try {
      return (await call({ ...message, ...declared(options) })) as R;
    } catch (error) {
      throw error instanceof Error ? error : rebuilt(error as SentError, params, options);
    }
  }

  function queries(tx?: number) {
    return {
      async query<T>(text: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
        const result = await run<Results<T>>({ op: "query", tx, text, params }, params, options);
        return parsed(result, options);
      },
      async exec(text: string, options?: QueryOptions): Promise<Results[]> {
        const results = await run<Results[]>({ op: "exec", tx, text }, undefined, options);
        return results.map((result) => parsed(result, options));
      },
    };
  }

  async function held<T>(bound: number | undefined, fn: (tx: Transaction) => Promise<T>): Promise<T> {
    const tx = (await run<number>({ op: "begin", bound }, undefined, undefined)) as number;
    let closed = false;
    const transaction = {
      ...queries(tx),
      async rollback() {
        await run({ op: "rollback", tx }, undefined, undefined);
        closed = true;
      },
      get closed() {
        return closed;
      },
      sql: () => Promise.reject(new Error("tx.sql is not available on the embedded database's thread: use tx.query.")),
      listen: () => Promise.reject(new Error("LISTEN is not available on the embedded database's thread.")),
    } as unknown as Transaction;
    let result: T;
    try {
      result = await fn(transaction);
    } catch (error) {
      closed = true;
      await run({ op: "end", tx, commit: false }, undefined, undefined);
      throw error;
    }
    closed = true;
    await run({ op: "end", tx, commit: true }, undefined, undefined);
    return result;
  }

  const handle: PGliteHandle = {
    ...queries(),
    parsers: Object.fromEntries(knownTypes.map((oid) => [oid, (value: string) => value])),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => held(undefined, fn),
    bounded: (ms, fn) => held(ms, fn),
    async close() {
      try {
        await run({ op: "close" }, undefined, undefined);
      } finally {
        await worker.terminate();
      }
    },
  } as PGliteHandle;
  return handle;
}

/**
 * `options.parsers` applied to the columns of their types, which the worker left as text: what
 * PGlite does for a value that is not null, `parser(text, typeId)`.
 */
function parsed<T>(result: Results<T>, options: QueryOptions | undefined): Results<T> {
  const parsers = options?.parsers;
  if (!parsers || result.rows.length === 0) return result;
  const byArray = options.rowMode === "array";
  const columns: { key: string | number; parse: (value: string, typeId: number) => unknown; typeId: number }[] = [];
  result.fields.forEach((field, i) => {
    const parse = parsers[field.dataTypeID] as ((value: string, typeId: number) => unknown) | undefined;
    // In object rows a later column of the same name is the one kept.
    if (parse && (byArray || result.fields.findLastIndex((f) => f.name === field.name) === i))
      columns.push({ key: byArray ? i : field.name, parse, typeId: field.dataTypeID });
  });
  if (columns.length === 0) return result;
  for (const row of result.rows as Record<string | number, unknown>[]) {
    for (const { key, parse, typeId } of columns) {
      const value = row[key];
      if (value !== null) row[key] = parse(value as string, typeId);
    }
  }
  return result;
}
