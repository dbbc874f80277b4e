import { resolveCaller } from "@/server/auth/caller";
import { acceptInvite } from "@/server/auth/members";
import { inviteAccept } from "@/server/auth/schema";
import { forbidden } from "@/server/core/errors";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { wireAccepted } from "@/server/auth/wire";

/** A signed-in user accepts an invitation sent to their e-mail address. */
export const POST = route({
  access: "public",
  body: inviteAccept,
  response: wireAccepted,
  handler: async ({ ctx, body, request }) => {
    const caller = await resolveCaller(request, ctx.sql);
    if (!caller.user || caller.identity?.kind === "api_key") throw forbidden("Sign in as the invited user to accept an invitation.");
    return acceptInvite(ctx.sql, caller.user, body.token);
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
