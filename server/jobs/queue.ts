import PgBoss from "pg-boss";
import { database, type Sql } from "../db/client";
import { env } from "../env";
import { jobFailures } from "../core/metrics";

/**
 * Durable background work on pg-boss, in the database every deployment already has (PostgreSQL,
 * or the embedded PGlite): a job is a row, written in the same transaction as the change that asks
 * for it, claimed by one worker with `FOR UPDATE SKIP LOCKED`, and run again on another instance if
 * the one running it dies (its lease, JOB_LEASE_SECONDS, runs out). pg-boss runs its SQL through our
 * executor, so a job can be enqueued inside any `Sql.tx`.
 */
export interface Job<T> {
  id: string;
  data: T;
}

export interface NewJob<T> {
  /** A stable id makes enqueueing idempotent: the same id twice is one job. */
  id?: string;
  data: T;
  startAfter?: Date;
}

export interface Queue<T> {
  name: string;
  batchSize: number;
  /** Enqueues through `db`: inside a transaction the jobs exist exactly when its other writes do. */
  enqueue(db: Sql, jobs: NewJob<T>[]): Promise<void>;
}

/** Runs a claimed batch. Throwing fails the whole batch (pg-boss runs it again, up to 3 times). */
type Handler = (db: Sql, jobs: Job<unknown>[]) => Promise<void>;
type Handler0 = (db: Sql) => Promise<void>;

const SCHEMA = "pgboss";
const executor = (db: Sql) => ({ executeSql: (text: string, values?: unknown[]) => db.text(text, values) });

// On globalThis: Next.js may load this module more than once, and there must be one boss per process.
const state = globalThis as unknown as {
  tracelightQueues?: Set<string>;
  tracelightHandlers?: Map<string, { queue: Queue<unknown>; handler: Handler }>;
  tracelightBoss?: Promise<PgBoss>;
  tracelightPeriodic?: Map<string, { seconds: () => number; task: Handler0 }>;
  tracelightTimers?: NodeJS.Timeout[];
};
const queueNames = (state.tracelightQueues ??= new Set());
const handlers = (state.tracelightHandlers ??= new Map());
const periodic = (state.tracelightPeriodic ??= new Map());
/** The periodic rounds and other upkeep running now, which stopJobs waits for. */
const rounds = new Set<Promise<unknown>>();

/**
 * Upkeep started outside a periodic round (a claim woken by ingest's commit) that stopJobs must
 * wait for before the caller closes the database under it. Returns `work`.
 */
export function inFlight<T>(work: Promise<T>): Promise<T> {
  rounds.add(work);
  const done = () => rounds.delete(work);
  work.then(done, done);
  return work;
}

/**
 * pg-boss over `db`, its schema migrated and the defined queues created (once per process; later
 * calls get the same one). Enqueueing then runs only its insert, through the caller's executor: on
 * the embedded database a transaction holds the one connection, and any other statement would wait
 * for it forever.
 */
function boss(db?: Sql): Promise<PgBoss> {
  state.tracelightBoss ??= (async () => {
    const instance = new PgBoss({
      db: executor(db ?? (await database()).sql),
      schema: SCHEMA,
      schedule: false,
      supervise: true,
      maintenanceIntervalSeconds: env().JOB_MAINTENANCE_SECONDS,
    });
    instance.on("error", (error) => console.error("Job queue:", error.message));
    await instance.start();
    for (const name of queueNames) await ensureQueue(instance, name);
    return instance;
  })();
  const starting = state.tracelightBoss;
  starting.catch(() => {
    if (state.tracelightBoss === starting) state.tracelightBoss = undefined;
  });
  return starting;
}

async function ensureQueue(instance: PgBoss, name: string): Promise<void> {
  // Idempotent in pg-boss (ON CONFLICT DO NOTHING), so instances starting together do not race.
  await instance.createQueue(name, { name, retryLimit: 3, retryDelay: 5, retryBackoff: true, expireInSeconds: env().JOB_LEASE_SECONDS });
}

/** A named queue; its jobs run in a batch of up to `batchSize` by what `onJobs` registered. */
export function defineQueue<T>(name: string, options: { batchSize: number }): Queue<T> {
  queueNames.add(name);
  return {
    name,
    batchSize: options.batchSize,
    async enqueue(db, jobs) {
      if (jobs.length === 0) return;
      const instance = await boss();
      await instance.insert(
        jobs.map((j) => ({ id: j.id, name, data: j.data as object, startAfter: j.startAfter?.toISOString() })),
        { db: executor(db) } as never,
      );
    },
  };
}

/** What runs the queue's jobs in this process (registered at load by the domain that owns the queue). */
export function onJobs<T>(queue: Queue<T>, handler: (db: Sql, jobs: Job<T>[]) => Promise<void>): void {
  handlers.set(queue.name, { queue: queue as Queue<unknown>, handler: handler as Handler });
}

/**
 * A task run every `seconds()` by each process that runs workers, for upkeep that must never wait
 * on a request (the rollups' compaction). It must be safe to run from several processes at once.
 */
export function onEvery(name: string, seconds: () => number, task: (db: Sql) => Promise<void>): void {
  periodic.set(name, { seconds, task });
}

/**
 * Starts the queue on `db` and `workers` workers per defined queue in this process (JOB_WORKERS; the
 * embedded default runs web and worker in one process).
 */
export async function startJobs(db: Sql, workers = env().JOB_WORKERS): Promise<void> {
  const instance = await boss(db);
  if (workers === 0) return;
  state.tracelightTimers ??= [];
  for (const [name, { seconds, task }] of periodic) {
    let running: Promise<void> | null = null;
    const timer = setInterval(() => {
      if (running) return;
      running = inFlight(
        task(db)
          .catch((error: unknown) => console.error(`Periodic task ${name} failed:`, error))
          .finally(() => {
            running = null;
          }),
      );
    }, seconds() * 1000);
    timer.unref();
    state.tracelightTimers.push(timer);
  }
  for (const { queue, handler } of handlers.values()) {
    for (let i = 0; i < workers; i++) {
      const id: string = await instance.work(queue.name, { batchSize: queue.batchSize, pollingIntervalSeconds: 0.5 }, async (jobs) => {
        await handler(
          db,
          jobs.map((j) => ({ id: j.id, data: j.data })),
        ).catch((error: unknown) => {
          jobFailures.inc({ queue: queue.name });
          throw error;
        });
        // A full batch means a backlog: fetch the next one at once instead of after the polling interval.
        if (jobs.length === queue.batchSize) instance.notifyWorker(id);
      });
    }
  }
}

/** Jobs waiting per defined queue and how long the oldest has waited, for /metrics. */
export async function queueDepths(db: Sql): Promise<{ queue: string; waiting: number; oldestSeconds: number }[]> {
  const { rows } = await db.text(
    `SELECT name AS queue, count(*)::int AS waiting, coalesce(extract(epoch FROM now() - min(created_on)), 0)::float8 AS oldest
     FROM ${SCHEMA}.job WHERE state IN ('created', 'retry') AND name = ANY($1) GROUP BY name`,
    [[...queueNames]],
  );
  const found = new Map((rows as { queue: string; waiting: number; oldest: number }[]).map((r) => [r.queue, r]));
  return [...queueNames].map((queue) => ({ queue, waiting: found.get(queue)?.waiting ?? 0, oldestSeconds: found.get(queue)?.oldest ?? 0 }));
}

/** Stops this process's workers and lets running jobs finish (tests, shutdown). */
export async function stopJobs(): Promise<void> {
  for (const timer of state.tracelightTimers?.splice(0) ?? []) clearInterval(timer);
  // A periodic round or a woken claim in flight finishes before the caller closes the database under it.
  await Promise.allSettled([...rounds]);
  const starting = state.tracelightBoss;
  state.tracelightBoss = undefined;
  if (starting) await (await starting).stop({ graceful: true, wait: true });
}
