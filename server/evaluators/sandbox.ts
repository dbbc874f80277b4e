import path from "node:path";
import { Worker } from "node:worker_threads";
import { env } from "../env";

/** One code evaluation: the evaluator's source and the data it may read (nothing else crosses). */
export interface SandboxJob {
  id: string;
  code: string;
  language: "javascript" | "typescript";
  run: unknown;
  example: unknown;
}
export type SandboxAnswer = { value: unknown } | { error: string };

/** Time the thread gets beyond the evaluator's own limit (startup, compiling) before it is terminated. */
const GRACE_MS = 2_000;
const MAX_OUTPUT_CHARS = 64 * 1024;

/**
 * Loaded by path rather than imported: the worker runs as its own module graph (QuickJS, esbuild),
 * outside the server's bundle (hence the bundler told to ignore it), from the project root both the
 * built server and the tests run in.
 */
const WORKER_FILE = path.join(/* turbopackIgnore: true */ process.cwd(), "server/evaluators/sandbox-worker.mjs");

/**
 * Runs the jobs in one worker thread, in order, each in a fresh QuickJS (WebAssembly) runtime with
 * a memory cap and a deadline. The event loop here never runs evaluator code: a runaway evaluator
 * costs its thread, not the server. Should the thread stop answering (a limit QuickJS does not
 * check in time, or the thread's own heap cap), it is terminated, that job fails as timed out, and
 * a new thread takes the jobs after it.
 */
export async function runInSandbox(jobs: SandboxJob[]): Promise<Map<string, SandboxAnswer>> {
  const answers = new Map<string, SandboxAnswer>();
  let rest = jobs;
  while (rest.length > 0) {
    const done = await runBatch(rest, answers);
    rest = rest.slice(done);
  }
  return answers;
}

/** One thread over the jobs; answers how many it settled (the last of them failed when it was stopped). */
function runBatch(jobs: SandboxJob[], answers: Map<string, SandboxAnswer>): Promise<number> {
  const { CODE_EVALUATOR_TIMEOUT_MS: cpuMs, CODE_EVALUATOR_MEMORY_MB: memoryMb } = env();
  return new Promise((resolve) => {
    let settled = 0;
    let over = false;
    const worker = new Worker(/* turbopackIgnore: true */ WORKER_FILE, {
      workerData: { jobs, cpuMs, memoryBytes: memoryMb * 1024 * 1024, maxOutputChars: MAX_OUTPUT_CHARS },
      // QuickJS's heap is WebAssembly memory; the thread's own JS heap needs little.
      resourceLimits: { maxOldGenerationSizeMb: 64 + memoryMb, maxYoungGenerationSizeMb: 16 },
      // Emscripten's messages (an aborted teardown) are the sandbox's own, not the server's log.
      stdout: true,
      stderr: true,
    });
    worker.stdout.resume();
    worker.stderr.resume();
    let timer: NodeJS.Timeout;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop(`timed out: stopped after ${cpuMs} ms`), cpuMs + GRACE_MS);
    };
    const stop = (error: string) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      if (settled < jobs.length) answers.set(jobs[settled].id, { error });
      void worker.terminate();
      resolve(settled + 1);
    };
    worker.on("message", (m: { id: string } & SandboxAnswer) => {
      const { id, ...answer } = m;
      answers.set(id, answer);
      settled++;
      if (settled === jobs.length) {
        over = true;
        clearTimeout(timer);
        resolve(settled);
      } else arm();
    });
    worker.on("error", (error) =>
      stop(/memory/i.test(error.message) ? `out of memory: ${error.message}` : `the sandbox failed: ${error.message}`),
    );
    worker.on("exit", () => settled < jobs.length && stop("the sandbox stopped before answering"));
    arm();
  });
}
