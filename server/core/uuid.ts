import { createHash } from "node:crypto";
import { z } from "zod";

/** A UUID in its canonical text form, any case: the one check of ids from callers. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/** The same check as a zod schema, for request bodies and tRPC inputs. */
export const uuid = z.string().regex(UUID, "must be a UUID");

/** Path parameters that are ids, for the route factory: `idParams("setId")`. */
export const idParams = <K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, uuid])) as Record<K, typeof uuid>);

const NAMESPACE = Buffer.from("6f1c2a9e4b7d4e21a3c5d8f0b2e4c6a8", "hex");

/**
 * A name-based UUID (RFC 9562 version 5, in Tracelight's namespace): the same name gives the same
 * id, so work that may run again (a retried job) writes the same rows instead of new ones.
 */
export function nameUuid(name: string): string {
  const hash = createHash("sha1").update(NAMESPACE).update(name).digest();
  hash[6] = (hash[6] & 0x0f) | 0x50;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
