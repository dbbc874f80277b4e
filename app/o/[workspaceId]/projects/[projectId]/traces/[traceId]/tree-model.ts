import type { OutlineRun } from "@/server/runs/trace-outline-wire";

export interface TreeNode {
  run: OutlineRun;
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
 * The tree of a trace from its outline in tree order (parents come before their children). A run
 * whose parent is not among them (not sent yet) is shown as a root.
 */
export function buildTree(runs: OutlineRun[]): TraceTree {
  const nodes = new Map<string, TreeNode>();
  const roots: string[] = [];
  let end = 0;
  for (const run of runs) {
    end = Math.max(end, run.end_ms ?? run.start_ms);
    const parentRun = run.parent >= 0 ? runs[run.parent] : undefined;
    const parentNode = parentRun ? nodes.get(parentRun.id) : undefined;
    const node: TreeNode = {
      run,
      depth: parentNode ? parentNode.depth + 1 : 0,
      parent: parentNode ? parentRun!.id : null,
      children: [],
      startMs: run.start_ms,
      endMs: run.end_ms,
    };
    nodes.set(run.id, node);
    if (parentNode) parentNode.children.push(run.id);
    else roots.push(run.id);
  }
  return { nodes, roots, startMs: 0, endMs: end };
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
