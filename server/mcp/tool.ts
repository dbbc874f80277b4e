import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { ToolContext } from "./context";

type ToolResult = { content: { type: "text"; text: string }[]; structuredContent?: Record<string, unknown> };

/** One tool: what it does (for the agent), its input (zod, checked by the SDK) and the service calls behind it. */
export interface Tool<S extends z.ZodRawShape = z.ZodRawShape> {
  description: string;
  input: S;
  annotations?: ToolAnnotations;
  run: (ctx: ToolContext, input: z.infer<z.ZodObject<S>>) => Promise<ToolResult>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each tool's input shape differs; tool() checks each one
export type ToolSet = Record<string, Tool<any>>;

/** A tool whose `run` is typed by its own input shape. */
export const tool = <S extends z.ZodRawShape>(definition: Tool<S>): Tool<S> => definition;
