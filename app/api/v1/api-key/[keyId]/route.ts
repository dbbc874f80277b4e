import { idParams } from "@/server/core/uuid";
import { revokeKey } from "@/server/auth/keys-service";
import { methodNotAllowed } from "@/server/http/not-found";
import { DELETED, route } from "@/server/http/route";

export const DELETE = route({
  answers: DELETED,
  access: "read",
  params: idParams("keyId"),
  handler: ({ ctx, params }) => revokeKey(ctx.sql, ctx.identity, params.keyId),
});

export const { GET, POST, PUT, PATCH } = methodNotAllowed("DELETE");
