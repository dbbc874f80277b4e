import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { workspaceUsage } from "@/server/billing/service";

export const GET = route({
  access: "read",
  answers: {
    contentType: "application/json",
    description:
      "The workspace's plan and monthly usage, with `unreported`: usage this deployment recorded that billing has not counted yet.",
  },
  handler: ({ ctx }) => workspaceUsage(ctx.sql, ctx.workspaceId),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
