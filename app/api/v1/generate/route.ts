import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { generateBody } from "@/server/generate/schema";
import { generate } from "@/server/generate/service";

export const POST = route({
  answers: { contentType: "application/json", description: "The generated object (a prompt, examples or a schema, as the body asked)." },
  access: "write",
  body: generateBody,
  handler: ({ ctx, body }) => generate(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
