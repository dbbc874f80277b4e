import { methodNotAllowed } from "@/server/http/not-found";
import { signUpBody } from "@/server/auth/schema";
import { signUp } from "@/server/auth/users";
import { route } from "@/server/http/route";
import { wireSignedUp } from "@/server/auth/wire";

/** Creates a user and a workspace where the user is admin; the UI then signs in through next-auth. */
export const POST = route({
  access: "public",
  body: signUpBody,
  status: 201,
  response: wireSignedUp,
  handler: async ({ ctx, body }) => {
    const { userId, workspaceId } = await signUp(ctx.sql, { ...body, workspaceName: body.workspace_name });
    return { user_id: userId, workspace_id: workspaceId };
  },
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
