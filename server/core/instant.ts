import { z } from "zod";
import { parseInstant } from "./time";

/** A date and time as the SDKs send it (ISO 8601, any zone), as a Date. */
export const instant = z
  .string()
  .refine((v) => parseInstant(v) !== null, "must be a date and time (ISO 8601)")
  .transform((v) => new Date(Number(parseInstant(v)! / 1000n)));
