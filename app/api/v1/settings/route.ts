import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { getSettings, wireTenant } from "@/server/prompts/settings";

/** The caller's workspace ("tenant") with its hub handle, chosen from its name on first use. */
export const GET = route({
  access: "read",
  response: wireTenant,
  handler: ({ ctx }) => getSettings(ctx.sql, ctx.workspaceId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
