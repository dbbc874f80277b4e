import { z } from "zod";
import { createKey, listKeys, revokeKey } from "../../auth/keys-service";
import { createInvite, deleteInvite, listInvites, listMembers, removeMember, setMemberRole } from "../../auth/members";
import { apiKeyCreate, inviteCreate, memberPatch } from "../../auth/schema";
import type { Identity } from "../../auth/identity";
import { modelPriceCreate } from "../../llm/price-schema";
import { createModelPrice, deleteModelPrice, listModelPrices, wireModelPrice } from "../../llm/workspace-prices";
import { uuid } from "../../core/uuid";
import { router, workspaceAdminProcedure, workspaceProcedure, type Role } from "../init";
import { answers } from "../output";
import { wireApiKey, wireNewApiKey, wireMember, wireInvite, wireNewInvite } from "../../auth/wire";

/** The signed-in member as the key service sees a caller. */
const identity = (ctx: { workspaceId: string; role: Role; userId: string }): Identity => ({
  kind: "user",
  workspaceId: ctx.workspaceId,
  role: ctx.role,
  userId: ctx.userId,
});

export const settingsRouter = router({
  apiKeys: router({
    list: workspaceProcedure.output(answers(z.array(wireApiKey))).query(({ ctx }) => listKeys(ctx.sql, identity(ctx))),
    /** The answer carries the plain key: the only time it is ever shown. */
    create: workspaceProcedure
      .input(z.object({ key: apiKeyCreate }))
      .output(answers(wireNewApiKey))
      .mutation(({ ctx, input }) => createKey(ctx.sql, identity(ctx), input.key)),
    revoke: workspaceProcedure.input(z.object({ id: uuid })).mutation(({ ctx, input }) => revokeKey(ctx.sql, identity(ctx), input.id)),
  }),

  members: router({
    list: workspaceProcedure.output(answers(z.array(wireMember))).query(({ ctx }) => listMembers(ctx.sql, ctx.workspaceId)),
    invites: workspaceAdminProcedure.output(answers(z.array(wireInvite))).query(({ ctx }) => listInvites(ctx.sql, ctx.workspaceId)),
    invite: workspaceAdminProcedure
      .input(z.object({ invite: inviteCreate }))
      .output(answers(wireNewInvite))
      .mutation(({ ctx, input }) => createInvite(ctx.sql, ctx.workspaceId, input.invite, ctx.userId)),
    cancelInvite: workspaceAdminProcedure
      .input(z.object({ id: uuid }))
      .mutation(({ ctx, input }) => deleteInvite(ctx.sql, ctx.workspaceId, input.id)),
    setRole: workspaceAdminProcedure
      .input(z.object({ userId: uuid, change: memberPatch }))
      .output(answers(wireMember))
      .mutation(({ ctx, input }) => setMemberRole(ctx.sql, ctx.workspaceId, input.userId, input.change.role)),
    remove: workspaceAdminProcedure
      .input(z.object({ userId: uuid }))
      .mutation(({ ctx, input }) => removeMember(ctx.sql, ctx.workspaceId, input.userId)),
  }),

  prices: router({
    list: workspaceProcedure
      .output(answers(z.array(wireModelPrice)))
      .query(({ ctx }) => listModelPrices(ctx.sql, ctx.workspaceId, { source: "all" })),
    create: workspaceAdminProcedure
      .input(z.object({ price: modelPriceCreate }))
      .output(answers(wireModelPrice))
      .mutation(({ ctx, input }) => createModelPrice(ctx.sql, ctx.workspaceId, input.price)),
    delete: workspaceAdminProcedure
      .input(z.object({ id: uuid }))
      .mutation(({ ctx, input }) => deleteModelPrice(ctx.sql, ctx.workspaceId, input.id)),
  }),
});
