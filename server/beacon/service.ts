import { createHash, randomUUID } from "node:crypto";
import { z } from "zod";
import type { Sql } from "../db/client";
import type { Prisma } from "../db/generated/client";
import { parseJson, readDecodedBody } from "../http/body";
import { badRequest, describeZodError } from "../core/errors";
import { isoFromDb } from "../core/time";
import type { BeaconReport, MetadataSubmit } from "./schema";

/** Reports are small: a window's counts and tags. Larger bodies are refused before parsing. */
export const MAX_REPORT_BYTES = 64 * 1024;

/** Reads and validates a report body, refusing more than MAX_REPORT_BYTES (declared, sent or decoded). */
export async function readReport<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  const bytes = await readDecodedBody(request, MAX_REPORT_BYTES);
  const parsed = schema.safeParse(parseJson(bytes));
  if (!parsed.success) throw badRequest(describeZodError(parsed.error, "body"));
  return parsed.data;
}

const digest = (secret: string | undefined) => (secret ? createHash("sha256").update(secret).digest("hex") : null);

/** A report received: its id, kind and when. */
export const wireStoredReport = z.object({ id: z.string(), kind: z.string(), received_at: z.string() });
export type StoredReport = z.infer<typeof wireStoredReport>;

interface Report {
  kind: string;
  license?: string;
  api_key?: string;
  instance_id?: string;
  version?: string;
  from_timestamp?: string;
  to_timestamp?: string;
  measures?: Record<string, number>;
  tags?: Record<string, unknown>;
  [extra: string]: unknown;
}

/** The window's ends were checked as ISO-8601 instants by the schema. */
const instant = (value: string | undefined) => (value ? new Date(value) : null);

async function store(db: Sql, ip: string | null, report: Report): Promise<StoredReport> {
  const { kind, license, api_key, instance_id, version, from_timestamp, to_timestamp, measures, tags, ...rest } = report;
  const row = await db.prisma.deploymentReport.create({
    data: {
      id: randomUUID(),
      kind,
      licenseDigest: digest(license ?? api_key),
      instanceId: instance_id ?? null,
      version: version ?? null,
      fromTime: instant(from_timestamp),
      toTime: instant(to_timestamp),
      measures: measures ?? {},
      tags: (tags ?? {}) as Prisma.InputJsonObject,
      payload: rest as Prisma.InputJsonObject,
      ip,
    },
    select: { id: true, receivedAt: true },
  });
  return { id: row.id, kind, received_at: isoFromDb(row.receivedAt)! };
}

/** POST */
export function submitMetadata(db: Sql, ip: string | null, body: MetadataSubmit): Promise<StoredReport> {
  return store(db, ip, { ...body, kind: "metadata" });
}

/** POST /v1/beacon: trace_transactions also add up to the `langsmith.traces` measure. */
export function submitBeacon(db: Sql, ip: string | null, body: BeaconReport): Promise<StoredReport> {
  const { event, ...report } = body;
  const measures = { ...report.measures };
  if (report.trace_transactions?.length && measures["langsmith.traces"] === undefined) {
    measures["langsmith.traces"] = report.trace_transactions.reduce((n, t) => n + t.trace_count, 0);
  }
  return store(db, ip, { ...report, measures, kind: `beacon:${event}` });
}

/** Stored reports for a license key (newest first), as an operator reads them. */
export async function reportsForLicense(db: Sql, license: string, limit = 100) {
  const rows = await db.prisma.deploymentReport.findMany({
    where: { licenseDigest: digest(license) },
    orderBy: [{ receivedAt: "desc" }, { id: "asc" }],
    take: limit,
  });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    instance_id: r.instanceId,
    version: r.version,
    from_time: isoFromDb(r.fromTime),
    to_time: isoFromDb(r.toTime),
    measures: r.measures,
    tags: r.tags,
    payload: r.payload,
    ip: r.ip,
    received_at: isoFromDb(r.receivedAt)!,
  }));
}
