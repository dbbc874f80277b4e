import { z } from "zod";

/** A UUID in its canonical text form, any case: the one check of ids from callers. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string) => UUID.test(value);

/** The same check as a zod schema, for request bodies and tRPC inputs. */
export const uuid = z.string().regex(UUID, "must be a UUID");

/** Path parameters that are ids, for the route factory: `idParams("setId")`. */
export const idParams = <K extends string>(...names: K[]) =>
  z.object(Object.fromEntries(names.map((name) => [name, uuid])) as Record<K, typeof uuid>);
