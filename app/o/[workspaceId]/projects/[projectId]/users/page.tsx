"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useParams, useRouter } from "next/navigation";
import { Suspense } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatCost, formatCount, formatTokens, relativeTime } from "../../../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../../../_components/ui";
import { useUrlState } from "../../../_components/url-state";
import { SearchBox, TimeRange } from "../list-controls";
import { ProjectSubpage } from "../project-subpage";
import { rangeBounds } from "../view-state";
import controls from "../list-controls.module.css";
import styles from "./users.module.css";

const PAGE = 50;
type SortBy = "user_id" | "traces" | "threads" | "errors" | "total_tokens" | "total_cost" | "first_seen" | "last_seen";

const COLUMNS: { by: SortBy; label: string; num?: boolean }[] = [
  { by: "user_id", label: "User" },
  { by: "traces", label: "Traces", num: true },
  { by: "threads", label: "Threads", num: true },
  { by: "errors", label: "With errors", num: true },
  { by: "total_tokens", label: "Tokens", num: true },
  { by: "total_cost", label: "Cost", num: true },
  { by: "first_seen", label: "First seen" },
  { by: "last_seen", label: "Last seen" },
];

/** The runs list of one end user's traces: the filter language's `user_id`. */
const tracesOf = (workspaceId: string, projectId: string, userId: string) =>
  `/o/${workspaceId}/projects/${projectId}?filter=${encodeURIComponent(`eq(user_id, ${JSON.stringify(userId)})`)}`;

function UsersPage() {
  const { workspaceId, projectId } = useParams<{ workspaceId: string; projectId: string }>();
  const trpc = useTRPC();
  const router = useRouter();
  const [params, setParams] = useUrlState();
  const search = params.get("q") ?? "";
  const [by, dir] = (params.get("sort") ?? "last_seen:desc").split(":") as [SortBy, "asc" | "desc"];
  const offset = Number(params.get("offset") ?? 0) || 0;
  const { startTime, endTime } = rangeBounds(params);
  const users = useQuery({
    ...trpc.runs.users.queryOptions({
      workspaceId,
      projectId,
      search: search || undefined,
      startTime,
      endTime,
      sort: { by: COLUMNS.some((c) => c.by === by) ? by : "last_seen", dir: dir === "asc" ? "asc" : "desc" },
      offset,
      limit: PAGE,
    }),
    placeholderData: (prev) => prev,
  });
  const sortBy = (column: SortBy) =>
    setParams({ sort: by === column && dir === "desc" ? `${column}:asc` : `${column}:desc`, offset: null });
  const total = users.data?.total ?? 0;

  return (
    <ProjectSubpage
      workspaceId={workspaceId}
      projectId={projectId}
      title="Users"
      subtitle={
        <>
          End users named by their traces&apos; metadata: <code>user_id</code>, <code>ls_user_id</code>, OpenTelemetry&apos;s{" "}
          <code>user.id</code> or Langfuse&apos;s <code>userId</code>.
        </>
      }
    >
      <div className={controls.controls}>
        <SearchBox value={search} onChange={(q) => setParams({ q: q || null, offset: null })} placeholder="Search user ids…" />
        <span className="grow" />
        <TimeRange params={params} setParams={(patch) => setParams({ ...patch, offset: null })} />
      </div>
      <div className="card" style={{ overflow: "auto" }}>
        {users.isPending ? (
          <LoadingState label="Loading users…" />
        ) : users.isError ? (
          <ErrorState error={users.error} title="Could not load users" retry={() => void users.refetch()} />
        ) : users.data.users.length === 0 ? (
          search || startTime || endTime ? (
            <EmptyState title="No users match">Try a wider time range or another search.</EmptyState>
          ) : (
            <EmptyState title="No users yet">
              Send a user id in a trace&apos;s metadata (<code>metadata.user_id</code>) and its users show up here.
            </EmptyState>
          )
        ) : (
          <table className={`table ${styles.table}`} data-testid="users-table">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th
                    key={c.by}
                    className={c.num ? "num" : undefined}
                    aria-sort={by === c.by ? (dir === "asc" ? "ascending" : "descending") : "none"}
                  >
                    <button type="button" className={styles.sort} onClick={() => sortBy(c.by)} data-testid={`users-sort-${c.by}`}>
                      {c.label}
                      {by === c.by ? (dir === "asc" ? " ↑" : " ↓") : ""}
                    </button>
                  </th>
                ))}
                <th>Feedback</th>
              </tr>
            </thead>
            <tbody>
              {users.data.users.map((u) => (
                <tr key={u.user_id} data-testid="user-row" onClick={() => router.push(tracesOf(workspaceId, projectId, u.user_id))}>
                  <td className="mono truncate" title={u.user_id}>
                    <Link href={tracesOf(workspaceId, projectId, u.user_id)} onClick={(e) => e.stopPropagation()}>
                      {u.user_id}
                    </Link>
                  </td>
                  <td className="num">{formatCount(u.traces)}</td>
                  <td className="num">{formatCount(u.threads)}</td>
                  <td className={`num ${u.errors ? "err-text" : ""}`}>{formatCount(u.errors)}</td>
                  <td className="num">{formatTokens(u.total_tokens)}</td>
                  <td className="num">{formatCost(u.total_cost)}</td>
                  <td className="muted">{relativeTime(u.first_seen)}</td>
                  <td className="muted">{relativeTime(u.last_seen)}</td>
                  <td>
                    <span className={styles.pills}>
                      {Object.entries(u.feedback)
                        .slice(0, 3)
                        .map(([key, f]) => (
                          <span
                            key={key}
                            className={`badge ${f.avg === null ? "" : f.avg >= 0.5 ? "badge-ok" : "badge-error"}`}
                            title={`${key}: ${f.n} feedback`}
                          >
                            {key} <b>{f.avg === null ? f.n : Math.round(f.avg * 100) / 100}</b>
                          </span>
                        ))}
                    </span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      {total > PAGE ? (
        <div className="row" style={{ justifyContent: "flex-end", gap: 8 }}>
          <span className="faint">
            {offset + 1}–{Math.min(offset + PAGE, total)} of {formatCount(total)}
          </span>
          <button
            type="button"
            className="btn btn-sm"
            disabled={offset === 0}
            onClick={() => setParams({ offset: String(Math.max(0, offset - PAGE)) })}
          >
            Previous
          </button>
          <button
            type="button"
            className="btn btn-sm"
            disabled={offset + PAGE >= total}
            onClick={() => setParams({ offset: String(offset + PAGE) })}
          >
            Next
          </button>
        </div>
      ) : null}
    </ProjectSubpage>
  );
}

export default function Page() {
  return (
    <Suspense fallback={<LoadingState />}>
      <UsersPage />
    </Suspense>
  );
}
