import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sharedDataset } from "@/server/sharing/public-datasets";

/** The shared dataset. No key needed. */
export const GET = route({
  access: "public",
  handler: ({ ctx, params }) => sharedDataset(ctx.sql, params.token),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
