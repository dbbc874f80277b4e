import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { sharedDataset } from "@/server/sharing/public-datasets";
import { wireDataset } from "@/server/datasets/schema";

/** The shared dataset. No key needed. */
export const GET = route({
  access: "public",
  response: wireDataset,
  handler: ({ ctx, params }) => sharedDataset(ctx.sql, params.token),
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
