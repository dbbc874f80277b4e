import { z } from "zod";
import { exampleFilterFromWire, exampleListQuery, wireExample } from "@/server/datasets/schema";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sharedExamples } from "@/server/sharing/public-datasets";

/** The shared dataset's examples (id, splits, metadata, filter, as_of, offset/limit). No key needed. */
export const GET = route({
  access: "public",
  query: exampleListQuery,
  response: z.array(wireExample),
  handler: ({ ctx, params, query }) => sharedExamples(ctx.sql, params.token, exampleFilterFromWire(query)),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
