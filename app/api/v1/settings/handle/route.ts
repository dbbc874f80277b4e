import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { handleBody } from "@/server/prompts/schema";
import { setHandle, wireTenant } from "@/server/prompts/settings";

export const POST = route({
  access: "admin",
  body: handleBody,
  response: wireTenant,
  handler: ({ ctx, body }) => setHandle(ctx.sql, ctx.workspaceId, body.tenant_handle),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
