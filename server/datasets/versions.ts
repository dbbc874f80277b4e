import type { Sql } from "../db/client";
import { sql } from "../db/sql";
import { badRequest, notFound } from "../core/errors";
import { formatMicros, isoFromDb, parseInstant } from "../core/time";
import { findDataset } from "./service";

/**
 * A dataset's versions are the times its examples changed: every write closes rows (valid_to) and
 * opens rows (valid_from) at one time, truncated to milliseconds so a JS Date round-trips it.
 */
export async function versionTime(t: Sql): Promise<string> {
  const [row] = await t.query<{ t: string }>(sql`SELECT date_trunc('milliseconds', clock_timestamp()) AS t`);
  return row.t;
}

/** Examples visible at `asOf` (null: the current ones). */
export function visibleAt(asOf: string | null) {
  return asOf === null
    ? sql`valid_to IS NULL`
    : sql`valid_from <= ${asOf}::timestamptz AND (valid_to IS NULL OR valid_to > ${asOf}::timestamptz)`;
}

function instant(value: string | number, field: string): string {
  const micros = parseInstant(value);
  if (micros === null)
    throw badRequest(`Invalid ${field}: ${JSON.stringify(value)} is neither a tag of this dataset nor an ISO-8601 time.`);
  return formatMicros(micros);
}

/**
 * `as_of` as the SDKs send it: absent or "latest" for now, a tag of the dataset, or a time.
 * Returns null for the current version.
 */
export async function resolveAsOf(
  db: Sql,
  workspaceId: string,
  datasetId: string | null,
  value: string | undefined,
  field = "as_of",
): Promise<string | null> {
  if (value === undefined || value === "" || value.toLowerCase() === "latest") return null;
  if (datasetId) {
    const [tag] = await db.query<{ as_of: string }>(sql`
      SELECT as_of FROM dataset_tags WHERE workspace_id = ${workspaceId} AND dataset_id = ${datasetId} AND tag = ${value}`);
    if (tag) return tag.as_of;
  }
  if (parseInstant(value) === null) {
    throw datasetId
      ? notFound(`Dataset ${datasetId} has no version tagged ${JSON.stringify(value)}.`)
      : badRequest(`Invalid ${field}: ${JSON.stringify(value)} is not an ISO-8601 time (a tag needs dataset=<id>).`);
  }
  return instant(value, field);
}

/** The latest change time at or before `at`, or null when the dataset had no examples yet. */
async function versionAt(db: Sql, datasetId: string, at: string): Promise<string | null> {
  const [row] = await db.query<{ t: string | null }>(sql`
    SELECT max(t) AS t FROM (
      SELECT max(valid_from) AS t FROM example_versions WHERE dataset_id = ${datasetId} AND valid_from <= ${at}::timestamptz
      UNION ALL
      SELECT max(valid_to) FROM example_versions WHERE dataset_id = ${datasetId} AND valid_to <= ${at}::timestamptz) v`);
  return row?.t ?? null;
}

async function tagsAt(db: Sql, datasetId: string, at: string): Promise<string[]> {
  const rows = await db.query<{ tag: string }>(sql`
    SELECT tag FROM dataset_tags WHERE dataset_id = ${datasetId} AND as_of = ${at}::timestamptz ORDER BY tag`);
  return rows.map((r) => r.tag);
}

/** GET /datasets/{id}/version?as_of=|tag=: `{as_of, tags}` of the version in force then. */
export async function readVersion(db: Sql, workspaceId: string, datasetId: string, q: { as_of?: string; tag?: string }) {
  const dataset = await findDataset(db, workspaceId, datasetId);
  if ((q.as_of === undefined) === (q.tag === undefined)) throw badRequest("Give exactly one of as_of and tag.");
  let at: string;
  if (q.tag !== undefined) {
    const [tag] = await db.query<{ as_of: string }>(sql`SELECT as_of FROM dataset_tags WHERE dataset_id = ${datasetId} AND tag = ${q.tag}`);
    if (!tag) throw notFound(`Dataset ${datasetId} has no version tagged ${JSON.stringify(q.tag)}.`);
    at = tag.as_of;
  } else {
    const time = (await resolveAsOf(db, workspaceId, datasetId, q.as_of)) ?? (await versionTime(db));
    at = (await versionAt(db, datasetId, time)) ?? dataset.createdAt.toISOString();
  }
  return { as_of: isoFromDb(at), tags: await tagsAt(db, datasetId, at) };
}

/** GET /datasets/{id}/versions: every version, newest first, with its tags. */
export async function listVersions(db: Sql, workspaceId: string, datasetId: string, q: { search?: string; offset: number; limit: number }) {
  await findDataset(db, workspaceId, datasetId);
  const rows = await db.query<{ t: string; tags: string[] }>(sql`
    WITH times AS (
      SELECT valid_from AS t FROM example_versions WHERE dataset_id = ${datasetId}
      UNION SELECT valid_to FROM example_versions WHERE dataset_id = ${datasetId} AND valid_to IS NOT NULL
      UNION SELECT as_of FROM dataset_tags WHERE dataset_id = ${datasetId})
    SELECT times.t, coalesce(array_agg(g.tag ORDER BY g.tag) FILTER (WHERE g.tag IS NOT NULL), '{}') AS tags
    FROM times LEFT JOIN dataset_tags g ON g.dataset_id = ${datasetId} AND g.as_of = times.t
    GROUP BY times.t
    HAVING ${q.search ?? null}::text IS NULL OR bool_or(g.tag ILIKE '%' || ${q.search ?? ""} || '%')
    ORDER BY times.t DESC LIMIT ${q.limit} OFFSET ${q.offset}`);
  return rows.map((r) => ({ as_of: isoFromDb(r.t), tags: r.tags }));
}

/** PUT /datasets/{id}/tags: points the tag at the version in force at `as_of` (moving it if it existed). */
export async function setTag(db: Sql, workspaceId: string, datasetId: string, input: { as_of: string | number; tag: string }) {
  const dataset = await findDataset(db, workspaceId, datasetId);
  const time = instant(input.as_of, "as_of");
  const at = (await versionAt(db, datasetId, time)) ?? dataset.createdAt.toISOString();
  await db.query(sql`
    INSERT INTO dataset_tags (dataset_id, tag, workspace_id, as_of) VALUES (${datasetId}, ${input.tag}, ${workspaceId}, ${at}::timestamptz)
    ON CONFLICT (dataset_id, tag) DO UPDATE SET as_of = EXCLUDED.as_of`);
  return { as_of: isoFromDb(at), tags: await tagsAt(db, datasetId, at) };
}

/** GET /datasets/{id}/versions/diff: example ids added, removed and modified between two versions. */
export async function diffVersions(db: Sql, workspaceId: string, datasetId: string, q: { from_version: string; to_version: string }) {
  await findDataset(db, workspaceId, datasetId);
  const from = (await resolveAsOf(db, workspaceId, datasetId, q.from_version, "from_version")) ?? (await versionTime(db));
  const to = (await resolveAsOf(db, workspaceId, datasetId, q.to_version, "to_version")) ?? (await versionTime(db));
  const at = async (time: string) =>
    new Map(
      (
        await db.query<{ example_id: string; id: string }>(sql`
    SELECT example_id, id FROM example_versions WHERE dataset_id = ${datasetId} AND ${visibleAt(time)}`)
      ).map((r) => [r.example_id, r.id]),
    );
  const [before, after] = [await at(from), await at(to)];
  return {
    examples_modified: [...after].filter(([id, row]) => before.has(id) && before.get(id) !== row).map(([id]) => id),
    examples_added: [...after.keys()].filter((id) => !before.has(id)),
    examples_removed: [...before.keys()].filter((id) => !after.has(id)),
  };
}
