import { randomUUID } from "node:crypto";
import type { Sql } from "../db/client";
import type { SavedView } from "../db/generated/client";
import type { Role } from "../auth/api-keys";
import { badRequest, forbidden, notFound } from "../core/errors";
import { isUuid } from "../core/uuid";
import { isoFromDb } from "../core/time";
import { compileFilter } from "../runs/filter/index";
import { viewState, type ViewCreate, type ViewState, type ViewUpdate, type WireView } from "./schema";

/** Who is asking: a person (UI session or personal key) or a service key, with their role. */
export interface ViewActor {
  userId?: string | null;
  role: Role;
}

const missing = (id: string) => notFound(`Saved view ${id} not found.`);
const VIEWERS_SHARE =
  "Your role in this workspace is viewer: you can use the workspace's shared views and keep private ones, but not create or change shared views.";

const canShare = (actor: ViewActor) => actor.role !== "viewer";
const editable = (row: SavedView, actor: ViewActor) => (row.ownerId ? row.ownerId === actor.userId : canShare(actor));

function toWire(row: SavedView, actor: ViewActor): WireView {
  return {
    id: row.id,
    project_id: row.projectId,
    name: row.name,
    // Stored only after the same schema accepted it.
    state: viewState.parse(row.state),
    shared: row.ownerId === null,
    is_default: row.isDefault,
    editable: editable(row, actor),
    created_at: isoFromDb(row.createdAt),
    modified_at: isoFromDb(row.modifiedAt),
  };
}

/** A view's filter is checked when it is saved, not when someone opens it. */
function checked(state: ViewState): ViewState {
  if (state.filter) compileFilter(state.filter, "r");
  if (state.from && state.to && Date.parse(state.from) > Date.parse(state.to)) throw badRequest("The view's range starts after it ends.");
  return state;
}

async function projectOf(db: Sql, workspaceId: string, projectId: string): Promise<void> {
  if (!(await db.prisma.project.count({ where: { workspaceId, id: projectId } }))) throw notFound(`Project ${projectId} not found.`);
}

/** The views the actor can see: the workspace's shared ones and their own. */
const visible = (workspaceId: string, actor: ViewActor) => ({
  workspaceId,
  OR: [{ ownerId: null }, ...(actor.userId ? [{ ownerId: actor.userId }] : [])],
});

/** A project's views (or every project's), shared ones and the actor's own, by name. */
export async function listViews(db: Sql, workspaceId: string, actor: ViewActor, projectId?: string): Promise<WireView[]> {
  const rows = await db.prisma.savedView.findMany({
    where: { ...visible(workspaceId, actor), ...(projectId ? { projectId } : {}) },
    orderBy: [{ name: "asc" }, { id: "asc" }],
    take: 500,
  });
  return rows.map((r) => toWire(r, actor));
}

export async function readView(db: Sql, workspaceId: string, actor: ViewActor, id: string): Promise<WireView> {
  return toWire(await visibleRow(db, workspaceId, actor, id), actor);
}

async function visibleRow(db: Sql, workspaceId: string, actor: ViewActor, id: string): Promise<SavedView> {
  const row = isUuid(id) ? await db.prisma.savedView.findFirst({ where: { id, ...visible(workspaceId, actor) } }) : null;
  if (!row) throw missing(id);
  return row;
}

/** Makes `id` its project's default, in place of the one before (one statement each, in a transaction). */
async function makeDefault(db: Sql, workspaceId: string, projectId: string, id: string | null): Promise<void> {
  await db.prisma.$transaction([
    db.prisma.savedView.updateMany({ where: { workspaceId, projectId, isDefault: true }, data: { isDefault: false } }),
    ...(id ? [db.prisma.savedView.updateMany({ where: { workspaceId, id }, data: { isDefault: true } })] : []),
  ]);
}

/**
 * Saves a view. Shared views (and a project's default) need a member or admin; anyone with a user
 * (a viewer too) may keep private ones. A service key has no person to keep a private view for.
 */
export async function createView(db: Sql, workspaceId: string, actor: ViewActor, input: ViewCreate): Promise<WireView> {
  if (input.shared && !canShare(actor)) throw forbidden(VIEWERS_SHARE);
  if (!input.shared && !actor.userId) throw badRequest("A private view belongs to a person: a service key can save shared views only.");
  if (input.is_default && !input.shared) throw badRequest("A project's default view must be shared with the workspace.");
  await projectOf(db, workspaceId, input.project_id);
  const id = randomUUID();
  await db.prisma.savedView.create({
    data: {
      id,
      workspaceId,
      projectId: input.project_id,
      name: input.name,
      state: checked(input.state),
      ownerId: input.shared ? null : actor.userId!,
      createdBy: actor.userId ?? null,
    },
  });
  if (input.is_default) await makeDefault(db, workspaceId, input.project_id, id);
  return readView(db, workspaceId, actor, id);
}

async function editableRow(db: Sql, workspaceId: string, actor: ViewActor, id: string): Promise<SavedView> {
  const row = await visibleRow(db, workspaceId, actor, id);
  if (!editable(row, actor)) throw forbidden(VIEWERS_SHARE);
  return row;
}

export async function updateView(db: Sql, workspaceId: string, actor: ViewActor, id: string, change: ViewUpdate): Promise<WireView> {
  const row = await editableRow(db, workspaceId, actor, id);
  if (change.is_default && row.ownerId) throw badRequest("A project's default view must be shared with the workspace.");
  await db.prisma.savedView.updateMany({
    where: { workspaceId, id },
    data: { name: change.name, state: change.state ? checked(change.state) : undefined, modifiedAt: new Date() },
  });
  if (change.is_default === true) await makeDefault(db, workspaceId, row.projectId, id);
  if (change.is_default === false && row.isDefault) await makeDefault(db, workspaceId, row.projectId, null);
  return readView(db, workspaceId, actor, id);
}

export async function deleteView(db: Sql, workspaceId: string, actor: ViewActor, id: string): Promise<void> {
  await editableRow(db, workspaceId, actor, id);
  await db.prisma.savedView.deleteMany({ where: { workspaceId, id } });
}

/** The view a project opens on when its address carries no state (null when it has none). */
export async function defaultView(db: Sql, workspaceId: string, actor: ViewActor, projectId: string): Promise<WireView | null> {
  const row = await db.prisma.savedView.findFirst({ where: { workspaceId, projectId, isDefault: true } });
  return row ? toWire(row, actor) : null;
}
