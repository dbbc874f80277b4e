import type { ViewState } from "@/server/views/schema";

/** The time ranges the lists offer, as in the URL's `range`, and their length. */
export const RANGES = [
  { key: "1h", label: "Last hour", ms: 3_600_000 },
  { key: "24h", label: "Last 24 hours", ms: 86_400_000 },
  { key: "7d", label: "Last 7 days", ms: 7 * 86_400_000 },
  { key: "30d", label: "Last 30 days", ms: 30 * 86_400_000 },
] as const;

/** The address keys a saved view sets; applying a view clears the others of them. */
export const VIEW_PARAMS = ["filter", "q", "type", "root", "sort", "cols", "range", "from", "to", "view"] as const;

/**
 * The start_time bounds of the URL's range. A relative range starts at the whole minute, so that
 * the query (and its cache key) stays the same while a minute lasts; a custom one is `from`/`to`.
 */
export function rangeBounds(params: URLSearchParams, now = Date.now()): { startTime?: string; endTime?: string } {
  const range = RANGES.find((r) => r.key === params.get("range"));
  if (range) return { startTime: new Date(Math.floor((now - range.ms) / 60_000) * 60_000).toISOString() };
  const valid = (v: string | null) => (v && !Number.isNaN(Date.parse(v)) ? new Date(v).toISOString() : undefined);
  return { startTime: valid(params.get("from")), endTime: valid(params.get("to")) };
}

/** What the address says, as a view's state (what "Save view" keeps). */
export function stateFromParams(params: URLSearchParams): ViewState {
  const state: ViewState = {};
  const filter = params.get("filter");
  if (filter) state.filter = filter;
  const q = params.get("q");
  if (q) state.search = q;
  const type = params.get("type");
  if (type) state.runType = type;
  if (params.get("root") === "0") state.rootOnly = false;
  const [by, dir] = (params.get("sort") ?? "").split(":");
  if (by && (dir === "asc" || dir === "desc")) state.sort = { by: by as NonNullable<ViewState["sort"]>["by"], dir };
  const cols = params.get("cols");
  if (cols) state.columns = cols.split(",").filter(Boolean);
  const range = params.get("range");
  if (RANGES.some((r) => r.key === range)) state.range = range as ViewState["range"];
  const from = params.get("from");
  const to = params.get("to");
  if (!state.range && from && !Number.isNaN(Date.parse(from))) state.from = new Date(from).toISOString();
  if (!state.range && to && !Number.isNaN(Date.parse(to))) state.to = new Date(to).toISOString();
  if (params.get("view") === "threads") state.tab = "threads";
  return state;
}

/** The address patch that shows a view: every view key set from it or cleared. */
export function paramsFromState(state: ViewState): Record<string, string | null> {
  return {
    filter: state.filter ?? null,
    q: state.search ?? null,
    type: state.runType ?? null,
    root: state.rootOnly === false ? "0" : null,
    sort: state.sort ? `${state.sort.by}:${state.sort.dir}` : null,
    cols: state.columns?.length ? state.columns.join(",") : null,
    range: state.range ?? null,
    from: state.range ? null : (state.from ?? null),
    to: state.range ? null : (state.to ?? null),
    view: state.tab === "threads" ? "threads" : null,
  };
}

/** Whether the address carries any list state (if not, the project's default view opens). */
export const hasListState = (params: URLSearchParams) => VIEW_PARAMS.some((k) => params.has(k)) || params.has("saved");

/** Whether the address shows exactly the view's state. */
export function showsState(params: URLSearchParams, state: ViewState): boolean {
  const current = paramsFromState(stateFromParams(params));
  const wanted = paramsFromState(state);
  return VIEW_PARAMS.every((k) => (current[k] ?? null) === (wanted[k] ?? null));
}

/** The address once a view is shown (what opening it writes there): its keys set or cleared, `saved` its id. */
export function withView(params: URLSearchParams, view: { id: string; state: ViewState }): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries({ ...paramsFromState(view.state), saved: view.id }))
    if (value === null || value === "") next.delete(key);
    else next.set(key, value);
  return next;
}
