import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { apiKeyIdentity, type Identity } from "../auth/identity";
import { unauthorized } from "../core/errors";
import { credentialHeader } from "../core/headers";
import type { Sql } from "../db/client";
import { SERVICE_VERSION } from "../info";
import { registerTools } from "./tools";

const INSTRUCTIONS =
  "Tracelight holds this workspace's LLM traces. Start with list_projects, then search_runs (filter language) and get_trace / get_thread to read what happened; list_datasets and list_experiments for evaluations; pull_prompt / push_prompt for the prompt hub; run_sql for aggregates; add_feedback to score a run.";

/**
 * The caller of /mcp: an API key in `X-API-Key` or `Authorization: Bearer` (what MCP clients'
 * header settings send). 401 without one, so the client asks for it.
 */
export async function mcpIdentity(request: Request, db: Sql): Promise<Identity> {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  const key = credentialHeader(request.headers, "x-api-key") ?? bearer;
  if (!key) throw unauthorized("Send a Tracelight API key in X-API-Key or Authorization: Bearer to use the MCP server.");
  return apiKeyIdentity(db, key, credentialHeader(request.headers, "x-tenant-id"));
}

/**
 * One MCP request, statelessly (the Streamable HTTP transport with no session): a server with the
 * tools bound to the caller's workspace and role answers it and is dropped, so any instance can
 * answer any request.
 */
export async function answerMcp(request: Request, db: Sql, identity: Identity): Promise<Response> {
  const server = new McpServer({ name: "tracelight", version: SERVICE_VERSION }, { instructions: INSTRUCTIONS });
  registerTools(server, { sql: db, identity, workspaceId: identity.workspaceId });
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
