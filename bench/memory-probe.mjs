// Where a server's memory goes, from inside it, without changing it: preloaded with
// `E2E_NODE_ARGS="--import ./bench/memory-probe.mjs"` (or `node --import`), it records the
// WebAssembly memories created (PGlite's heap), samples process.memoryUsage() every 50 ms keeping
// the breakdown at the highest RSS, and on SIGUSR2 writes to MEMORY_PROBE_DIR (default the working
// directory) `memory-<pid>-<n>.json`: now and at peak, RSS, the V8 heap (used, total, by space),
// external and ArrayBuffer memory, the WebAssembly memories' sizes, and the rest (native: Node
// itself, malloc, compiled code). With MEMORY_PROBE_SNAPSHOT=1 it also writes a heap snapshot
// beside it (summarise it with bench/heap-summary.ts).
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import v8 from "node:v8";

const memories = [];
const Original = WebAssembly.Memory;
WebAssembly.Memory = class Memory extends Original {
  constructor(descriptor) {
    super(descriptor);
    memories.push({ ref: new WeakRef(this), initial: descriptor.initial, maximum: descriptor.maximum });
  }
};

const MB = 1024 * 1024;
const wasm = () =>
  memories.map((m) => ({
    mb: (m.ref.deref()?.buffer.byteLength ?? 0) / MB,
    initialMb: (m.initial * 65536) / MB,
    maximumMb: (m.maximum * 65536) / MB,
  }));

function breakdown() {
  const u = process.memoryUsage();
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, +(s.space_size / MB).toFixed(1)]));
  const wasmMb = wasm().reduce((sum, m) => sum + m.mb, 0);
  return {
    rssMb: +(u.rss / MB).toFixed(1),
    heapUsedMb: +(u.heapUsed / MB).toFixed(1),
    heapTotalMb: +(u.heapTotal / MB).toFixed(1),
    externalMb: +(u.external / MB).toFixed(1),
    arrayBuffersMb: +(u.arrayBuffers / MB).toFixed(1),
    wasmMb: +wasmMb.toFixed(1),
    // What is neither the V8 heap nor buffers nor WebAssembly memory: Node and V8 themselves, malloc, code.
    restMb: +((u.rss - u.heapTotal) / MB - Math.max(u.external / MB, wasmMb)).toFixed(1),
    spaces,
  };
}

/**
 * The resident pages of the process by mapping (/proc/self/smaps): files by name; anonymous
 * mappings listed one by one with their reserved size, which tells them apart (a WebAssembly
 * memory reserves ~10 GB, a malloc arena 64 MB, V8's pages 256 KB each, its code space 128 MB).
 */
function mappings() {
  const out = [];
  let current;
  for (const line of readFileSync("/proc/self/smaps", "utf8").split("\n")) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { name: head[4] || "[anon]", perms: head[3], sizeMb: (parseInt(head[2], 16) - parseInt(head[1], 16)) / MB, rssMb: 0 };
      out.push(current);
    } else if (current && line.startsWith("Rss:")) current.rssMb = Number(/(\d+)/.exec(line)[1]) / 1024;
  }
  const files = new Map();
  const anon = [];
  for (const m of out) {
    if (m.name === "[anon]") anon.push(m);
    else files.set(m.name, (files.get(m.name) ?? 0) + m.rssMb);
  }
  const round = (x) => +x.toFixed(1);
  return {
    files: [...files]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([name, mb]) => ({ name, rssMb: round(mb) })),
    anonRssMb: round(anon.reduce((s, m) => s + m.rssMb, 0)),
    anonBySize: Object.entries(
      anon.reduce((acc, m) => {
        const key = m.sizeMb >= 1024 ? ">=1GB reservation" : m.sizeMb >= 32 ? "32MB-1GB" : m.sizeMb >= 1 ? "1-32MB" : "<1MB";
        acc[key] = round((acc[key] ?? 0) + m.rssMb);
        return acc;
      }, {}),
    ),
    anonTop: anon
      .sort((a, b) => b.rssMb - a.rssMb)
      .slice(0, 15)
      .map((m) => ({ rssMb: round(m.rssMb), sizeMb: round(m.sizeMb), perms: m.perms })),
  };
}

let peak = breakdown();
setInterval(() => {
  const rss = process.memoryUsage.rss() / MB;
  if (rss > peak.rssMb) peak = breakdown();
}, 50).unref();

let n = 0;
process.on("SIGUSR2", () => {
  const dir = process.env.MEMORY_PROBE_DIR || process.cwd();
  const base = path.join(dir, `memory-${process.pid}-${++n}`);
  const now = breakdown();
  writeFileSync(`${base}.json`, JSON.stringify({ now, peak, wasm: wasm(), mappings: mappings() }, null, 1));
  if (process.env.MEMORY_PROBE_SNAPSHOT === "1") v8.writeHeapSnapshot(`${base}.heapsnapshot`);
  writeFileSync(`${base}.done`, "");
});
