import { after, before } from "node:test";
import { resetEnv } from "../env";

/** For a code evaluator test file: a 1 s CPU limit (so runaway code stops quickly) and one job worker, undone after. */
export function codeEvaluatorTestEnv(): void {
  before(() => {
    process.env.CODE_EVALUATOR_TIMEOUT_MS = "1000";
    process.env.JOB_WORKERS = "1";
    resetEnv();
  });
  after(() => {
    delete process.env.CODE_EVALUATOR_TIMEOUT_MS;
    delete process.env.JOB_WORKERS;
    resetEnv();
  });
}
