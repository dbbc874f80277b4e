import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { AppError } from "../core/errors";
import type { ToolContext } from "./context";
import type { ToolSet } from "./tool";
import { dataTools } from "./tools-data";
import { runTools } from "./tools-runs";

export const TOOLS: ToolSet = { ...runTools, ...dataTools };

/** A failure the agent can act on (not found, refused, bad input) is a tool error with its message; anything else is logged. */
function failure(error: unknown) {
  const message = error instanceof AppError ? error.detail : "The tool failed on the server; try again or narrow the request.";
  if (!(error instanceof AppError)) console.error("MCP tool failed", error);
  return { content: [{ type: "text" as const, text: message }], isError: true };
}

/** Registers every tool on `server`, each bound to the caller's workspace and role. */
export function registerTools(server: McpServer, ctx: ToolContext): void {
  for (const [name, tool] of Object.entries(TOOLS)) {
    server.registerTool(
      name,
      { description: tool.description, inputSchema: tool.input, annotations: tool.annotations ?? { readOnlyHint: true } },
      async (input: Record<string, unknown>) => {
        try {
          return await tool.run(ctx, input);
        } catch (error) {
          return failure(error);
        }
      },
    );
  }
}
