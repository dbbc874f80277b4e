import { methodNotAllowed } from "@/server/http/not-found";
import { createKey, listKeys } from "@/server/auth/keys-service";
import { apiKeyCreate } from "@/server/auth/schema";
import { reply, route } from "@/server/http/route";

export const GET = route({
  access: "read",
  handler: ({ ctx }) => listKeys(ctx.sql, ctx.identity),
});

/** The answer holds the plain key; it is never shown again. */
export const POST = route({
  access: "read",
  body: apiKeyCreate,
  handler: async ({ ctx, body }) => reply(201, await createKey(ctx.sql, ctx.identity, body)),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
