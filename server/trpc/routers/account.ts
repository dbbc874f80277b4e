import { TRPCError } from "@trpc/server";
import { acceptInvite } from "../../auth/members";
import { inviteAccept, signUpBody } from "../../auth/schema";
import { getUser, signUp } from "../../auth/users";
import type { Sql } from "../../db/client";
import { limitedProcedure, router, userProcedure } from "../init";
import { answers } from "../output";
import { wireAccepted } from "../../auth/wire";

/** The signed-in user's account; a session whose user is gone signs in again. */
async function account(ctx: { sql: Sql; userId: string }) {
  const user = await getUser(ctx.sql, ctx.userId);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  return user;
}

/** Signing up and joining a workspace from the sign-in pages (the REST API has the same as /auth/signup and /members/accept). */
export const accountRouter = router({
  /** The signed-in user. */
  me: userProcedure.query(({ ctx }) => account(ctx)),

  signUp: limitedProcedure("POST", "/api/v1/auth/signup")
    .input(signUpBody)
    .mutation(async ({ ctx, input }) => {
      const { userId, workspaceId } = await signUp(ctx.sql, { ...input, workspaceName: input.workspace_name });
      return { user_id: userId, workspace_id: workspaceId };
    }),

  /** The signed-in user accepts an invitation sent to their e-mail address. */
  acceptInvite: userProcedure
    .input(inviteAccept)
    .output(answers(wireAccepted))
    .mutation(async ({ ctx, input }) => acceptInvite(ctx.sql, await account(ctx), input.token)),
});
