// Summarises a V8 heap snapshot (.heapsnapshot, from `node --heapsnapshot-signal=SIGUSR2`,
// `v8.writeHeapSnapshot()` or DevTools) without DevTools: the heap's total, its shallow size by
// constructor (objects) or by kind (strings, code, arrays, …), and the objects that retain the most
// (dominator tree, retained size), each with the edge that holds it.
// Usage: npx tsx bench/heap-summary.ts <file.heapsnapshot> [top=25]
import { readFileSync } from "node:fs";

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[], ...unknown[]]; edge_fields: string[]; edge_types: [string[], ...unknown[]] };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error("Usage: npx tsx bench/heap-summary.ts <file.heapsnapshot> [top]");
const TOP = Number(topArg ?? 25);
const snap = JSON.parse(readFileSync(file, "utf8")) as Snapshot;
const { meta } = snap.snapshot;
const NF = meta.node_fields.length;
const EF = meta.edge_fields.length;
const [fType, fName, fSize, fEdges] = ["type", "name", "self_size", "edge_count"].map((f) => meta.node_fields.indexOf(f));
const [eType, eName, eTo] = ["type", "name_or_index", "to_node"].map((f) => meta.edge_fields.indexOf(f));
const nodeTypes = meta.node_types[0];
const edgeTypes = meta.edge_types[0];
const { nodes, edges, strings } = snap;
const n = nodes.length / NF;

const firstEdge = new Uint32Array(n + 1);
for (let i = 0, e = 0; i < n; i++) {
  firstEdge[i] = e;
  e += nodes[i * NF + fEdges] * EF;
  firstEdge[i + 1] = e;
}
const typeOf = (i: number) => nodeTypes[nodes[i * NF + fType]];
const nameOf = (i: number) => strings[nodes[i * NF + fName]];
const sizeOf = (i: number) => nodes[i * NF + fSize];
/** Objects by constructor; everything else by its kind (strings, compiled code, arrays, …). */
const label = (i: number) => {
  const t = typeOf(i);
  if (t === "object" || t === "closure" || t === "native") return `${t === "closure" ? "closure " : ""}${nameOf(i)}`;
  if (t === "hidden" || t === "array" || t === "object shape") return `(${t}) ${nameOf(i).slice(0, 40)}`;
  return `(${t})`;
};
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1).padStart(7);

let total = 0;
const byLabel = new Map<string, { size: number; count: number }>();
for (let i = 0; i < n; i++) {
  total += sizeOf(i);
  const entry = byLabel.get(label(i)) ?? { size: 0, count: 0 };
  entry.size += sizeOf(i);
  entry.count++;
  byLabel.set(label(i), entry);
}
console.log(`${file}: ${n} nodes, ${mb(total).trim()} MB shallow in all`);
console.log(`\nShallow size by constructor / kind (top ${TOP}):`);
for (const [name, { size, count }] of [...byLabel].sort((a, b) => b[1].size - a[1].size).slice(0, TOP))
  console.log(`${mb(size)} MB ${String(count).padStart(8)}×  ${name.slice(0, 100)}`);

// Source text kept for lazy compilation, by package: each Script's `source` string, grouped by the
// file it came from (node_modules/<package>, the build's chunks, Node's own).
const edgeTo = (v: number, name: string) => {
  for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF)
    if (edgeTypes[edges[e + eType]] !== "element" && strings[edges[e + eName]] === name) return edges[e + eTo] / NF;
  return -1;
};
const bySource = new Map<string, number>();
for (let v = 0; v < n; v++) {
  // A Script is a code node named by its file, with a `source` edge to its text.
  if (typeOf(v) !== "code" || !/^(\/|node:|file:)/.test(nameOf(v))) continue;
  const source = edgeTo(v, "source");
  if (source < 0 || !typeOf(source).includes("string")) continue;
  const file = nameOf(v);
  const pkg =
    /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1] ??
    (/\.next\/server\/(app|chunks|pages)/.exec(file)
      ? `.next/server/${/\.next\/server\/(app|chunks|pages)/.exec(file)![1]}`
      : file.startsWith("node:")
        ? "node:*"
        : file
          ? "other"
          : "(no name)");
  bySource.set(pkg, (bySource.get(pkg) ?? 0) + sizeOf(source));
}
console.log(`\nScript source text by package (${mb([...bySource.values()].reduce((a, b) => a + b, 0)).trim()} MB):`);
for (const [pkg, size] of [...bySource].sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`${mb(size)} MB  ${pkg}`);

// Dominators (Cooper, Harvey & Kennedy's iterative algorithm over a reverse post-order from the
// root, node 0), skipping weak edges as DevTools does.
const isWeak = (e: number) => edgeTypes[edges[e + eType]] === "weak";
const order = new Int32Array(n).fill(-1); // post-order number of each node
const post: number[] = [];
{
  const stack: number[] = [0];
  const next = new Uint32Array(n);
  const seen = new Uint8Array(n);
  seen[0] = 1;
  for (let i = 0; i < n; i++) next[i] = firstEdge[i];
  while (stack.length) {
    const v = stack[stack.length - 1];
    if (next[v] < firstEdge[v + 1]) {
      const e = next[v];
      next[v] += EF;
      if (isWeak(e)) continue;
      const w = edges[e + eTo] / NF;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push(w);
      }
    } else {
      order[v] = post.length;
      post.push(v);
      stack.pop();
    }
  }
}
const preds: number[][] = Array.from({ length: n }, () => []);
for (let v = 0; v < n; v++) {
  if (order[v] < 0) continue;
  for (let e = firstEdge[v]; e < firstEdge[v + 1]; e += EF) if (!isWeak(e)) preds[edges[e + eTo] / NF].push(v);
}
const idom = new Int32Array(n).fill(-1);
idom[0] = 0;
const intersect = (a: number, b: number) => {
  while (a !== b) {
    while (order[a] < order[b]) a = idom[a];
    while (order[b] < order[a]) b = idom[b];
  }
  return a;
};
for (let changed = true; changed;) {
  changed = false;
  for (let k = post.length - 2; k >= 0; k--) {
    const v = post[k];
    let d = -1;
    for (const p of preds[v]) if (idom[p] >= 0) d = d < 0 ? p : intersect(p, d);
    if (d >= 0 && idom[v] !== d) {
      idom[v] = d;
      changed = true;
    }
  }
}
const retained = new Float64Array(n);
for (const v of post) {
  retained[v] += sizeOf(v);
  if (v !== 0 && idom[v] >= 0) retained[idom[v]] += retained[v];
}
/** The name of the first edge holding a node, from its immediate dominator when there is one. */
const holder = (v: number) => {
  const d = idom[v];
  for (let e = firstEdge[d]; e < firstEdge[d + 1]; e += EF)
    if (edges[e + eTo] / NF === v) {
      const name = edges[e + eName];
      return `${label(d).slice(0, 40)}.${["element", "hidden"].includes(edgeTypes[edges[e + eType]]) ? `[${name}]` : strings[name]}`;
    }
  return label(d).slice(0, 40);
};
// The largest retainers that are not synthetic roots and whose dominator retains little besides them.
const candidates = post.filter((v) => v !== 0 && typeOf(v) !== "synthetic" && retained[v] > 256 * 1024);
candidates.sort((a, b) => retained[b] - retained[a]);
const shown: number[] = [];
for (const v of candidates) {
  // Skip a node whose dominator chain already has a shown node retaining almost the same.
  let d = idom[v];
  let covered = false;
  while (d > 0) {
    if (shown.includes(d) && retained[v] > 0.8 * retained[d]) covered = true;
    d = idom[d];
  }
  if (covered) continue;
  shown.push(v);
  if (shown.length >= TOP) break;
}
console.log(`\nLargest retainers (retained size; held by):`);
for (const v of shown) console.log(`${mb(retained[v])} MB  ${label(v).slice(0, 60).padEnd(60)} ← ${holder(v)}`);
