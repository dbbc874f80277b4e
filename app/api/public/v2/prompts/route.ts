import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { callerOf } from "@/server/prompts/access";
import { createLangfusePrompt, listLangfusePrompts, promptCreate, promptListQuery } from "@/server/langfuse/prompts";

/** Langfuse's prompt list (`name`, `label`, `tag`, `page`, `limit`): the workspace's prompt repos. */
export const GET = route({
  access: "read",
  basicAuth: true,
  query: promptListQuery,
  answers: {
    contentType: "application/json",
    description:
      "A page of prompts in Langfuse's shape: `data` (name, type, versions, labels, tags) and `meta` (page, limit, totalItems, totalPages).",
  },
  handler: ({ ctx, query }) => listLangfusePrompts(ctx.sql, callerOf(ctx), query),
});

/** Langfuse's `createPrompt`: a new version (commit) of a text or chat prompt, with labels (tags). */
export const POST = route({
  access: "write",
  basicAuth: true,
  body: promptCreate,
  answers: {
    contentType: "application/json",
    description: "The prompt version in Langfuse's shape (name, version, type, prompt, config, labels, tags).",
  },
  status: 201,
  handler: ({ ctx, body }) => createLangfusePrompt(ctx.sql, callerOf(ctx), body),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
