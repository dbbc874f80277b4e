import type { TraceRun } from "@/server/runs/trace";

export interface TreeNode {
  run: TraceRun;
  depth: number;
  parent: string | null;
  children: string[];
  /** Milliseconds from the trace's start. */
  startMs: number;
  endMs: number | null;
}

export interface TraceTree {
  nodes: Map<string, TreeNode>;
  roots: string[];
  startMs: number;
  /** The end of the latest run (or the latest start when runs are still open). */
  endMs: number;
}

/**
 * The tree of a trace from its runs in dotted order (parents come before their children). A run
 * whose parent is not among them (not sent yet) is shown as a root.
 */
export function buildTree(runs: TraceRun[]): TraceTree {
  const nodes = new Map<string, TreeNode>();
  const roots: string[] = [];
  const t0 = runs.length ? Math.min(...runs.map((r) => Date.parse(r.start_time))) : 0;
  let end = t0;
  for (const run of runs) {
    const start = Date.parse(run.start_time) - t0;
    const stop = run.end_time ? Date.parse(run.end_time) - t0 : null;
    end = Math.max(end, t0 + (stop ?? start));
    const parent = run.parent_run_id && nodes.has(run.parent_run_id) ? run.parent_run_id : null;
    const depth = parent ? nodes.get(parent)!.depth + 1 : 0;
    nodes.set(run.id, { run, depth, parent, children: [], startMs: start, endMs: stop });
    if (parent) nodes.get(parent)!.children.push(run.id);
    else roots.push(run.id);
  }
  return { nodes, roots, startMs: t0, endMs: end };
}

/** The rows shown: a depth-first walk that skips the children of collapsed runs. */
export function visibleRows(tree: TraceTree, collapsed: ReadonlySet<string>): TreeNode[] {
  const out: TreeNode[] = [];
  const stack = [...tree.roots].reverse();
  while (stack.length) {
    const id = stack.pop()!;
    const node = tree.nodes.get(id)!;
    out.push(node);
    if (!collapsed.has(id)) for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i]);
  }
  return out;
}

/** Runs at depth ≥ `depth` that have children: collapsed by default in very large traces. */
export function deepParents(tree: TraceTree, depth: number): Set<string> {
  const out = new Set<string>();
  for (const [id, node] of tree.nodes) if (node.depth >= depth && node.children.length) out.add(id);
  return out;
}
