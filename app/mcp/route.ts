import { route } from "@/server/http/route";
import { answerMcp, mcpIdentity } from "@/server/mcp/server";

/**
 * The Model Context Protocol over Streamable HTTP (stateless), for agents: tools over this
 * workspace's traces, datasets, experiments and prompts (server/mcp). An API key authenticates, in
 * X-API-Key or Authorization: Bearer.
 */
const mcp = route({
  access: "public",
  answers: { contentType: "application/json", description: "JSON-RPC answers of the Model Context Protocol." },
  handler: async ({ ctx, request }) =>
    answerMcp(request, ctx.sql, ctx.identity?.kind === "api_key" ? ctx.identity : await mcpIdentity(request, ctx.sql)),
});

export const { GET, POST, DELETE } = { GET: mcp, POST: mcp, DELETE: mcp };
