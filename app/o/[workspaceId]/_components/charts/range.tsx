"use client";

import { useMemo, useState } from "react";
import { useUrlState } from "../url-state";

export const RANGES = { "1h": 3600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type RangeKey = keyof typeof RANGES;

const isRange = (value: string | null): value is RangeKey => value !== null && Object.hasOwn(RANGES, value);

/**
 * The chosen range (kept in the URL as `range`) as fixed instants, the end rounded to the minute so
 * cached answers are reused.
 */
export function useRange(initial: RangeKey = "24h") {
  const [params, setParams] = useUrlState();
  const asked = params.get("range");
  const range: RangeKey = isRange(asked) ? asked : initial;
  const setRange = (next: RangeKey) => setParams({ range: next === initial ? null : next });
  const [tick, setTick] = useState(0);
  const window = useMemo(() => {
    const end = Math.ceil(Date.now() / 60_000) * 60_000;
    return { start_time: new Date(end - RANGES[range]).toISOString(), end_time: new Date(end).toISOString() };
    // `tick` asks for a fresh end time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [range, tick]);
  return { range, setRange, window, refresh: () => setTick((t) => t + 1) };
}

export function RangePicker({ value, onChange }: { value: RangeKey; onChange: (r: RangeKey) => void }) {
  return (
    <div className="segmented" role="group" aria-label="Time range">
      {(Object.keys(RANGES) as RangeKey[]).map((r) => (
        <button key={r} type="button" aria-pressed={value === r} onClick={() => onChange(r)}>
          {r}
        </button>
      ))}
    </div>
  );
}
