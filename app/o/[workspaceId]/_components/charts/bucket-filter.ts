/** How the charts label runs without the attribute they are grouped by (server/charts/series.ts). */
const NONE = "(none)";

/** The filter for the runs behind one bucket (and one group's bar) of a chart. */
export function bucketFilter(
  bucketStart: string,
  bucketSeconds: number,
  group: { attribute: string; value: string } | null,
  extra?: string,
): string {
  const end = new Date(Date.parse(bucketStart) + bucketSeconds * 1000).toISOString();
  const parts = [`gte(start_time, ${JSON.stringify(bucketStart)})`, `lt(start_time, ${JSON.stringify(end)})`];
  if (group?.attribute === "tag") {
    if (group.value !== NONE) parts.push(`has(tags, ${JSON.stringify(group.value)})`);
  } else if (group?.attribute) {
    parts.push(`eq(${group.attribute}, ${group.value === NONE ? "null" : JSON.stringify(group.value)})`);
  }
  if (extra) parts.push(extra);
  return `and(${parts.join(", ")})`;
}
