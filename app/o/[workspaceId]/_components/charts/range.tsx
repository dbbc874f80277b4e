"use client";

import { useMemo, useState } from "react";

export const RANGES = { "1h": 3600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type RangeKey = keyof typeof RANGES;

/** The chosen range as fixed instants (the end rounded to the minute, so cached answers are reused). */
export function useRange(initial: RangeKey = "24h") {
  const [range, setRange] = useState<RangeKey>(initial);
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
        <button key={r} type="button" aria-pressed={value === r} onClick={() => onChange(r)}>{r}</button>
      ))}
    </div>
  );
}
