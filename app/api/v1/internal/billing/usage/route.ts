import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { internalUsageQuery } from "@/server/billing/schema";
import { internalUsage, receiveUsage } from "@/server/billing/service";

export const POST = route({
  answers: {
    contentType: "application/json",
    description: '`{"applied": n, "duplicates": n}`: usage reports from another region applied (needs `X-Internal-Secret`).',
  },
  access: "public",
  body: "bytes",
  handler: ({ ctx, body, request }) => receiveUsage(ctx.sql, request.headers.get("x-internal-secret"), body.bytes),
});

export const GET = route({
  answers: { contentType: "application/json", description: "One workspace's usage for the region's billing (needs `X-Internal-Secret`)." },
  access: "public",
  query: internalUsageQuery,
  handler: ({ ctx, query, request }) => internalUsage(ctx.sql, request.headers.get("x-internal-secret"), query.workspace_id),
});

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
