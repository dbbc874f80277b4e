import { z } from "zod";
import { idParams } from "../core/uuid";
import type { Sql } from "../db/client";
import { methodNotAllowed } from "./not-found";
import { route } from "./route";

/**
 * A workspace resource's REST routes (alerts, run rules): its collection (GET lists, POST creates)
 * and one item by id (GET, PATCH, DELETE answering `{}`), each through `route`, with a 405 naming
 * the methods a path answers for the rest. A resource is its schemas and service functions; the
 * answer is checked against `wire` when it leaves, as with any route (its type is the services').
 */
export function collectionRoutes<Wire, Query, Create>(spec: {
  query: z.ZodType<Query>;
  body: z.ZodType<Create>;
  wire: z.ZodType<Wire>;
  /** 201 where the API answers a thing made so; 200 where the wire contract says 200. */
  createdStatus?: 200 | 201;
  list: (db: Sql, workspaceId: string, query: Query) => Promise<Wire[]>;
  create: (db: Sql, workspaceId: string, body: Create) => Promise<Wire>;
}) {
  return {
    ...methodNotAllowed("GET", "POST"),
    GET: route({
      access: "read",
      query: spec.query,
      response: z.array(spec.wire) as z.ZodType,
      handler: ({ ctx, query }) => spec.list(ctx.sql, ctx.workspaceId, query as Query),
    }),
    POST: route({
      access: "write",
      body: spec.body,
      response: spec.wire as z.ZodType,
      status: spec.createdStatus,
      handler: ({ ctx, body }) => spec.create(ctx.sql, ctx.workspaceId, body as Create),
    }),
  };
}

export function itemRoutes<Name extends string, Wire, Update>(spec: {
  /** The path parameter holding the item's id (`[alertId]`). */
  id: Name;
  body: z.ZodType<Update>;
  wire: z.ZodType<Wire>;
  read: (db: Sql, workspaceId: string, id: string) => Promise<Wire>;
  update: (db: Sql, workspaceId: string, id: string, body: Update) => Promise<Wire>;
  remove: (db: Sql, workspaceId: string, id: string) => Promise<unknown>;
}) {
  const params = idParams(spec.id);
  const idOf = (given: unknown) => (given as Record<Name, string>)[spec.id];
  return {
    ...methodNotAllowed("GET", "PATCH", "DELETE"),
    GET: route({
      access: "read",
      params,
      response: spec.wire as z.ZodType,
      handler: ({ ctx, params }) => spec.read(ctx.sql, ctx.workspaceId, idOf(params)),
    }),
    PATCH: route({
      access: "write",
      params,
      body: spec.body,
      response: spec.wire as z.ZodType,
      handler: ({ ctx, params, body }) => spec.update(ctx.sql, ctx.workspaceId, idOf(params), body as Update),
    }),
    DELETE: route({
      access: "write",
      params,
      response: z.object({}),
      handler: async ({ ctx, params }) => {
        await spec.remove(ctx.sql, ctx.workspaceId, idOf(params));
        return {};
      },
    }),
  };
}
