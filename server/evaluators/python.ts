import { fork, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { env } from "../env";
import type { SandboxAnswer } from "./sandbox";

/** One Python evaluation: the evaluator (its jobs share a process), its source and the data it may read. */
export interface PythonJob {
  id: string;
  evaluatorId: string;
  code: string;
  run: unknown;
  example: unknown;
}

/** Loading CPython and its standard library takes seconds on a busy machine; a process that is not ready by then is stopped. */
const STARTUP_MS = 60_000;
/** Time an evaluation gets beyond its own limit (the round trip) before its process is killed. */
const GRACE_MS = 1_000;
/** What the interpreter itself holds once loaded, beside the evaluator's allowance (CODE_EVALUATOR_MEMORY_MB). */
const RUNTIME_MB = 160;
const MEMORY_CHECK_MS = 50;
const MAX_OUTPUT_CHARS = 64 * 1024;

const CHILD_FILE = path.join(/* turbopackIgnore: true */ process.cwd(), "server/evaluators/python-sandbox.mjs");
/** The pyodide package's folder (runtime, WebAssembly and standard library): the only files the child may read. */
const pyodideDir = () =>
  path.dirname(createRequire(path.join(/* turbopackIgnore: true */ process.cwd(), "package.json")).resolve("pyodide/pyodide.mjs"));

/** Resident memory of a process in MB (0 once it is gone). */
function residentMb(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * Runs Python code evaluators in child processes (server/evaluators/python-sandbox.mjs), one per
 * evaluator, its jobs in order: the server's own process never runs Python. Each evaluation has the
 * CPU deadline and memory allowance of the JavaScript ones; past either, the process is killed, that
 * job fails with the limit's name, and a new process takes the evaluator's jobs after it.
 */
export async function runPythonInSandbox(jobs: PythonJob[]): Promise<Map<string, SandboxAnswer>> {
  const answers = new Map<string, SandboxAnswer>();
  const byEvaluator = new Map<string, PythonJob[]>();
  for (const job of jobs) byEvaluator.set(job.evaluatorId, [...(byEvaluator.get(job.evaluatorId) ?? []), job]);
  for (const group of byEvaluator.values()) {
    let rest = group;
    while (rest.length > 0) rest = rest.slice(await runInChild(rest, answers));
  }
  return answers;
}

/** One process over the jobs; answers how many it settled (the last of them failed when it was stopped). */
function runInChild(jobs: PythonJob[], answers: Map<string, SandboxAnswer>): Promise<number> {
  const { CODE_EVALUATOR_TIMEOUT_MS: cpuMs, CODE_EVALUATOR_MEMORY_MB: memoryMb } = env();
  const dir = pyodideDir();
  return new Promise((resolve) => {
    let settled = 0;
    let over = false;
    const child: ChildProcess = fork(CHILD_FILE, [`${dir}${path.sep}`, String(memoryMb)], {
      execArgv: [
        "--experimental-permission",
        `--allow-fs-read=${path.join(dir, "*")}`,
        `--allow-fs-read=${CHILD_FILE}`,
        `--max-old-space-size=${64 + memoryMb}`,
        "--no-warnings",
      ],
      env: { NODE_ENV: "production" },
      stdio: ["ignore", "ignore", "ignore", "ipc"],
      serialization: "json",
    });
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number, error: string) => {
      clearTimeout(timer);
      timer = setTimeout(() => stop(error), ms);
    };
    const memory = setInterval(() => {
      if (child.pid && residentMb(child.pid) > RUNTIME_MB + memoryMb) stop(`out of memory: the evaluator used over ${memoryMb} MB`);
    }, MEMORY_CHECK_MS);
    const stop = (error: string) => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      clearInterval(memory);
      if (settled < jobs.length) answers.set(jobs[settled].id, { error });
      child.kill("SIGKILL");
      resolve(settled + 1);
    };
    const next = () => {
      const { id, code, run, example } = jobs[settled];
      child.send({ id, code, run, example, maxOutputChars: MAX_OUTPUT_CHARS });
      arm(cpuMs + GRACE_MS, `timed out: stopped after ${cpuMs} ms`);
    };
    child.on("message", (m: { ready: true } | ({ id: string } & SandboxAnswer)) => {
      if ("ready" in m) return next();
      const { id, ...answer } = m;
      answers.set(id, answer);
      settled++;
      if (settled < jobs.length) return next();
      over = true;
      clearTimeout(timer);
      clearInterval(memory);
      child.kill();
      resolve(settled);
    });
    child.on("error", (error) => stop(`the sandbox failed: ${error.message}`));
    child.on("exit", () => settled < jobs.length && stop("the sandbox stopped before answering"));
    arm(STARTUP_MS, "the Python runtime did not start in time");
  });
}
