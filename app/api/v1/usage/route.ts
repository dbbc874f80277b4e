import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { workspaceUsage } from "@/server/billing/service";

export const GET = route({ access: "read", handler: ({ ctx }) => workspaceUsage(ctx.sql, ctx.workspaceId) });

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
