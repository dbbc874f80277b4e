import assert from "node:assert/strict";
import fc from "fast-check";
import { z } from "zod";
import { AppError, dataErrorDetail } from "../core/errors";
import { OtlpDecodeError } from "../otel/otlp";

/** How many cases each property tries: a bounded number in `npm test`, more with `npm run fuzz`. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS) || 150;

/** Any UTF-16 code units, the ones storage and parsers find hardest (NUL, lone surrogates, U+E000) often. */
export const anyText = fc.string({
  unit: fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)) },
    { weight: 1, arbitrary: fc.constantFrom("\u0000", "\ue000", "\ud800", "\udc00", "\\", '"', "%", "_", "(", ")", ",") },
  ),
  maxLength: 40,
});

/** JSON values whose strings and keys are `anyText`. */
export const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    anyText,
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(anyText, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** A failure the caller is told about (a 4xx with a reason), as opposed to a crash or a 500. */
export function isRefusal(error: unknown): boolean {
  if (error instanceof AppError) return error.status >= 400 && error.status < 500;
  // Zod, OTLP decoding and PostgreSQL's refusals of a value are all answered 400 by the error mapper.
  if (error instanceof z.ZodError || error instanceof OtlpDecodeError || dataErrorDetail(error)) return true;
  const status = (error as { clientStatus?: unknown } | null)?.clientStatus;
  return typeof status === "number" && status >= 400 && status < 500;
}

/** Runs `fn`; a refusal is fine, anything else thrown fails the property. */
export async function refusedOrDone<T>(fn: () => T | Promise<T>): Promise<T | undefined> {
  try {
    return await fn();
  } catch (error) {
    assert.ok(isRefusal(error), `not a clear 4xx: ${error instanceof Error ? error.stack : String(error)}`);
    return undefined;
  }
}
