/** Round axis ticks from zero: four equal steps up to a round ceiling (whole steps for counts). */
export function niceTicks(max: number, integer: boolean): number[] {
  if (!(max > 0)) return integer ? [0, 1] : [0, 0.5, 1];
  if (integer && max <= 4) return Array.from({ length: Math.ceil(max) + 1 }, (_, i) => i);
  const exponent = Math.floor(Math.log10(max));
  let top = max;
  search: for (let k = exponent - 1; k <= exponent + 1; k++) {
    for (const m of [1, 2, 4, 6, 8]) {
      const candidate = Number((m * 10 ** k).toPrecision(12));
      if (candidate >= max && (!integer || candidate % 4 === 0)) {
        top = candidate;
        break search;
      }
    }
  }
  return [0, 1, 2, 3, 4].map((i) => Number(((top * i) / 4).toPrecision(12)));
}
