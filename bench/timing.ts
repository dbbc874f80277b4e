/** The p-th percentile (0–1) of a sample. */
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;

/** Milliseconds of each of `rounds` calls of `op`, after up to 20 warm-up calls (given negative indexes). */
export async function timed(rounds: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.min(20, rounds); i++) await op(-1 - i);
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await op(i);
    times.push(performance.now() - t0);
  }
  return times;
}
