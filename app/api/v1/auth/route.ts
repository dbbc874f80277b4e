import { describeCaller, resolveCaller } from "@/server/auth/caller";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { wireCaller } from "@/server/auth/wire";

/** Who is calling: kind (api_key | user), workspace, role, key or user. 401 when nobody. */
export const GET = route({
  access: "public",
  response: wireCaller,
  handler: async ({ ctx, request }) => describeCaller(ctx.sql, await resolveCaller(request, ctx.sql)),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
