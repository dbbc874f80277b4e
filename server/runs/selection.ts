/**
 * What the runs services take: the domain's own words, parsed once by each adapter (REST in
 * `schema.ts`, v2, tRPC, MCP) from its wire shape.
 */

/** An instant as the caller gave it: ISO-8601 text or epoch milliseconds (checked where it is used). */
export type Instant = string | number;

/** Which runs of the workspace: every field narrows, absent fields do not. */
export interface RunSelection {
  /** Exactly these runs, whatever the other fields say (an empty list matches none). */
  ids?: string[];
  projectIds?: string[];
  runType?: string;
  referenceExampleIds?: string[];
  parentRunId?: string;
  traceId?: string;
  isRoot?: boolean;
  error?: boolean;
  /** Bounds (inclusive) on a run's start time. */
  startTime?: Instant;
  endTime?: Instant;
  /** Full text in name, inputs, outputs and error. */
  search?: string;
  /** The filter language, over the run itself, its trace's root, or another run of its trace. */
  filter?: string;
  traceFilter?: string;
  treeFilter?: string;
}

/** One page of runs: newest first unless `order` says otherwise; `cursor` continues a page. */
export interface RunQuery extends RunSelection {
  limit?: number;
  /** The fields each run carries; all of them when absent or empty. */
  fields?: string[];
  order?: "asc" | "desc";
  cursor?: string;
}

/** A project's conversations: its runs grouped by thread id, narrowed like a selection. */
export interface ThreadQuery {
  projectId: string;
  filter?: string;
  startTime?: Instant;
  endTime?: Instant;
  limit?: number;
  offset?: number;
}
