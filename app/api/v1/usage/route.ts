import { route } from "@/server/http/route";
import { workspaceUsage } from "@/server/billing/service";

export const GET = route({ access: "read", handler: ({ ctx }) => workspaceUsage(ctx.sql, ctx.workspaceId) });
