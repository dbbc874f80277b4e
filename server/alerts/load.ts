import type { Sql } from "../db/client";
import { notFound } from "../core/errors";
import { isUuid } from "../core/uuid";

/** The workspace's alert rule, or a 404 (another workspace's rule is not found either). */
export async function loadAlert(db: Sql, workspaceId: string, id: string) {
  const row = isUuid(id) ? await db.prisma.alertRule.findFirst({ where: { id, workspaceId } }) : null;
  if (!row) throw notFound(`Alert ${id} not found.`);
  return row;
}
