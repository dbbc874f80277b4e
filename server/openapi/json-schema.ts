import { z } from "zod";

export type JsonSchema = { [key: string]: unknown };

/**
 * Turns the routes' zod schemas into the document's JSON Schemas (OpenAPI 3.1 is JSON Schema
 * 2020-12), with zod's own converter. A recursive schema comes back with `$defs` and `#/$defs/…`
 * references, which inside an OpenAPI document would point at the document's root: they are moved
 * into `components.schemas` under names unique to the document, and the references follow them.
 */
export class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};
  private count = 0;

  /**
   * The schema of what a caller may send, which is also what the route checks its answer against
   * (the factory validates the handler's value without rewriting it): fields with a default are
   * optional, transforms are described by their input, and a type JSON cannot express (a Date
   * before it is serialised, a custom check) is an unconstrained schema.
   */
  convert(schema: z.ZodType): JsonSchema {
    const converted = z.toJSONSchema(schema, { io: "input", unrepresentable: "any", cycles: "ref", reused: "inline" }) as JsonSchema;
    delete converted.$schema;
    const defs = (converted.$defs ?? {}) as Record<string, JsonSchema>;
    delete converted.$defs;
    const names = new Map<string, string>();
    for (const local of Object.keys(defs)) names.set(local, `Schema${++this.count}`);
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (!value || typeof value !== "object") return value;
      const out: JsonSchema = {};
      for (const [key, inner] of Object.entries(value)) {
        if (key === "$ref" && typeof inner === "string" && inner.startsWith("#/$defs/")) {
          out.$ref = `#/components/schemas/${names.get(inner.slice("#/$defs/".length))}`;
        } else out[key] = rewrite(inner);
      }
      return out;
    };
    for (const [local, def] of Object.entries(defs)) this.components[names.get(local)!] = rewrite(def) as JsonSchema;
    return rewrite(converted) as JsonSchema;
  }
}
