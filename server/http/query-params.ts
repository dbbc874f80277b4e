import { z } from "zod";

/** Query-parameter shapes as the SDKs send them: repeated keys, booleans and JSON as text. */

/** A parameter that may be repeated (`?id=a&id=b`): always a list when present. */
export const many = <T extends z.ZodType>(item: T) =>
  z
    .union([item, z.array(item)])
    .optional()
    .transform((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]) as z.infer<T>[] | undefined);

/** A boolean written as text, the way Python and JS clients write it. */
export const flag = z
  .enum(["true", "false", "True", "False", "1", "0"])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === "true" || v === "True" || v === "1"));

/** A JSON object passed as one parameter (`?metadata={"k":"v"}`). */
export const jsonObjectParam = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return undefined;
    try {
      const parsed = JSON.parse(v);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    } catch {
      // reported below
    }
    ctx.addIssue({ code: "custom", message: "must be a JSON object" });
    return z.NEVER;
  });
