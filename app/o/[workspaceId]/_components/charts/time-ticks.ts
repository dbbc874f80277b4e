/**
 * The time axis of bucketed charts, from the range alone: a round step (10 minutes, 4 hours, a day,
 * a week, …) chosen from the span, so every chart over the same range marks the same instants with
 * the same labels, whatever its width or kind. In the viewer's time zone, as the tooltips are.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Steps under a day, each dividing a day; then days, then weeks. */
const STEPS = [
  MINUTE,
  2 * MINUTE,
  5 * MINUTE,
  10 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  HOUR,
  2 * HOUR,
  3 * HOUR,
  4 * HOUR,
  6 * HOUR,
  12 * HOUR,
];
/** At most this many labels, so they fit a half-width card. */
const MAX_TICKS = 7;

const pad = (n: number) => String(n).padStart(2, "0");
const midnight = (t: number) => {
  const d = new Date(t);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
};
/** Local days since the epoch (DST-proof: counted from the date, not from milliseconds). */
const dayNumber = (t: number) => {
  const d = new Date(t);
  return Math.round(Date.UTC(d.getFullYear(), d.getMonth(), d.getDate()) / DAY);
};
const nextDay = (t: number) => {
  const d = new Date(t);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
};

/** The step for a span: the smallest round one giving at most MAX_TICKS marks. */
function stepFor(spanMs: number): number {
  const step = STEPS.find((s) => spanMs / s <= MAX_TICKS);
  if (step) return step;
  const days = Math.ceil(spanMs / DAY / MAX_TICKS);
  return days <= 2 ? days * DAY : Math.ceil(days / 7) * 7 * DAY;
}

/** Whether a local midnight is a mark for a step of whole days (weeks: Mondays, every n-th week). */
function dayMarked(t: number, step: number): boolean {
  const days = step / DAY;
  if (days < 7) return dayNumber(t) % days === 0;
  const weeks = days / 7;
  // Day 4 since the epoch was a Monday.
  return new Date(t).getDay() === 1 && Math.floor((dayNumber(t) - 4) / 7) % weeks === 0;
}

/** The first marked instant at or after t. */
function nextMark(t: number, step: number): number {
  if (step < DAY) {
    const day = midnight(t);
    return day + Math.ceil((t - day) / step) * step;
  }
  let day = midnight(t) === t ? t : nextDay(t);
  while (!dayMarked(day, step)) day = nextDay(day);
  return day;
}

/** "Nov 23" at a day's start or for steps of days, "14:00" otherwise. */
function markLabel(t: number, step: number): string {
  const d = new Date(t);
  if (step >= DAY || (d.getHours() === 0 && d.getMinutes() === 0)) return d.toLocaleString("en-US", { month: "short", day: "numeric" });
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * The buckets (ISO starts, `bucketSeconds` wide) to label on a chart's time axis, and their labels:
 * a bucket is labelled when a round instant of the range's step falls in it, with that instant.
 */
export function timeTicks(buckets: string[], bucketSeconds: number): { ticks: string[]; label: (bucket: string) => string } {
  const width = bucketSeconds * 1000;
  const starts = buckets.map((b) => Date.parse(b));
  if (starts.length === 0) return { ticks: [], label: () => "" };
  // The span the axis labels: from the first bucket's start to the last's.
  const step = Math.max(stepFor(starts[starts.length - 1] - starts[0]), width);
  const labels = new Map<string, string>();
  // The last bucket or two stay unlabelled: a label there is cut at the chart's edge (and, a day
  // after the first one, would repeat it).
  const lastLabelled = starts.length > 2 ? starts.length - 1 - Math.max(1, Math.floor(starts.length * 0.03)) : starts.length - 1;
  buckets.forEach((bucket, i) => {
    if (i > lastLabelled) return;
    const mark = nextMark(starts[i], step);
    if (mark < starts[i] + width) labels.set(bucket, markLabel(mark, step));
  });
  return { ticks: [...labels.keys()], label: (bucket) => labels.get(bucket) ?? "" };
}
