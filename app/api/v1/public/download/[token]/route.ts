import { z } from "zod";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { downloadShared, parseFormat } from "@/server/sharing/download";
import { resolveShare } from "@/server/sharing/service";

/** A shared trace or dataset as a file (`format` json, jsonl or csv). No key needed. */
export const GET = route({
  answers: { contentType: "application/json", description: "The shared trace or dataset as a file: JSON, JSON lines or CSV (`format`)." },
  access: "public",
  query: z.object({ format: z.string().optional() }),
  handler: async ({ ctx, params, query }) => {
    const format = parseFormat(query.format);
    return downloadShared(ctx.sql, await resolveShare(ctx.sql, params.token), format);
  },
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
