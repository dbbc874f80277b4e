/** A side-by-side line diff (longest common subsequence), for comparing two commits' manifests. */
export interface DiffRow {
  kind: "same" | "removed" | "added" | "changed";
  left: string | null;
  right: string | null;
  leftNo: number | null;
  rightNo: number | null;
}

const MAX_CELLS = 4_000_000;

/** Pretty JSON with keys sorted, so reordered keys do not show as changes. */
export function stableJson(value: unknown): string {
  const sort = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(sort);
    if (v && typeof v === "object")
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, sort((v as Record<string, unknown>)[k])]),
      );
    return v;
  };
  return JSON.stringify(sort(value), null, 2) ?? "null";
}

export function diffLines(a: string[], b: string[]): DiffRow[] {
  // Common head and tail first: most edits are small, and this keeps the table small too.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const ops: ("same" | "removed" | "added")[] = [];
  if ((midA.length + 1) * (midB.length + 1) > MAX_CELLS) {
    for (let i = 0; i < midA.length; i++) ops.push("removed");
    for (let j = 0; j < midB.length; j++) ops.push("added");
  } else {
    const n = midA.length;
    const m = midB.length;
    const lcs = new Int32Array((n + 1) * (m + 1));
    for (let i = n - 1; i >= 0; i--) {
      for (let j = m - 1; j >= 0; j--) {
        lcs[i * (m + 1) + j] =
          midA[i] === midB[j] ? lcs[(i + 1) * (m + 1) + j + 1] + 1 : Math.max(lcs[(i + 1) * (m + 1) + j], lcs[i * (m + 1) + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && midA[i] === midB[j]) {
        ops.push("same");
        i++;
        j++;
      } else if (j < m && (i === n || lcs[i * (m + 1) + j + 1] >= lcs[(i + 1) * (m + 1) + j])) {
        ops.push("added");
        j++;
      } else {
        ops.push("removed");
        i++;
      }
    }
  }
  const rows: DiffRow[] = [];
  for (let k = 0; k < head; k++) rows.push({ kind: "same", left: a[k], right: b[k], leftNo: k + 1, rightNo: k + 1 });
  let i = head;
  let j = head;
  for (let k = 0; k < ops.length;) {
    if (ops[k] === "same") {
      rows.push({ kind: "same", left: a[i], right: b[j], leftNo: ++i, rightNo: ++j });
      k++;
      continue;
    }
    // A run of removals and additions pairs up line by line as "changed".
    const removed: number[] = [];
    const added: number[] = [];
    while (k < ops.length && ops[k] !== "same") {
      if (ops[k] === "removed") removed.push(i++);
      else added.push(j++);
      k++;
    }
    for (let p = 0; p < Math.max(removed.length, added.length); p++) {
      const l = removed[p];
      const r = added[p];
      rows.push({
        kind: l !== undefined && r !== undefined ? "changed" : l !== undefined ? "removed" : "added",
        left: l !== undefined ? a[l] : null,
        right: r !== undefined ? b[r] : null,
        leftNo: l !== undefined ? l + 1 : null,
        rightNo: r !== undefined ? r + 1 : null,
      });
    }
  }
  for (let k = 0; k < tail; k++) {
    const l = a.length - tail + k;
    const r = b.length - tail + k;
    rows.push({ kind: "same", left: a[l], right: b[r], leftNo: l + 1, rightNo: r + 1 });
  }
  return rows;
}
