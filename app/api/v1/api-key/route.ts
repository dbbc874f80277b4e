import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { createKey, listKeys } from "@/server/auth/keys-service";
import { apiKeyCreate } from "@/server/auth/schema";
import { route } from "@/server/http/route";
import { wireApiKey, wireNewApiKey } from "@/server/auth/wire";

export const GET = route({
  access: "read",
  response: z.array(wireApiKey),
  handler: ({ ctx }) => listKeys(ctx.sql, ctx.identity),
});

/** The answer holds the plain key; it is never shown again. */
export const POST = route({
  access: "read",
  body: apiKeyCreate,
  status: 201,
  response: wireNewApiKey,
  handler: ({ ctx, body }) => createKey(ctx.sql, ctx.identity, body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
