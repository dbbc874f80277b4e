"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { use, useMemo, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterOutputs } from "@/app/trpc-types";

type CommitView = RouterOutputs["prompts"]["commit"];
import { JsonView } from "../../../_components/conversation/json-view";
import { formatExactTime, relativeTime } from "../../../_components/format";
import { EmptyState, ErrorState, LoadingState, Spinner } from "../../../_components/ui";
import { diffLines, stableJson, type DiffRow } from "../../diff";
import styles from "../../prompts.module.css";

const CONTEXT = 3;

/** Long runs of unchanged lines fold to a clickable "N unchanged lines" row. */
function DiffTable({ rows, left, right }: { rows: DiffRow[]; left: string; right: string }) {
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const changed = rows.some((r) => r.kind !== "same");
  const items: ({ row: DiffRow } | { fold: number; count: number })[] = [];
  for (let i = 0; i < rows.length;) {
    if (rows[i].kind !== "same") {
      items.push({ row: rows[i++] });
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j].kind === "same") j++;
    const start = i === 0 ? 0 : i + CONTEXT;
    const end = j === rows.length ? j : j - CONTEXT;
    if (end - start > 2 && !expanded.has(i)) {
      for (let k = i; k < start; k++) items.push({ row: rows[k] });
      items.push({ fold: i, count: end - start });
      for (let k = end; k < j; k++) items.push({ row: rows[k] });
    } else {
      for (let k = i; k < j; k++) items.push({ row: rows[k] });
    }
    i = j;
  }
  return (
    <div className="card" style={{ overflow: "auto" }}>
      {!changed && (
        <div className="muted" style={{ padding: "8px 12px" }}>
          The two manifests are identical.
        </div>
      )}
      <table className={styles.diff} data-testid="prompt-diff">
        <colgroup>
          <col className={styles.noCol} />
          <col />
          <col className={styles.noCol} />
          <col />
        </colgroup>
        <thead>
          <tr>
            <th colSpan={2}>{left}</th>
            <th colSpan={2}>{right}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((item, n) =>
            "fold" in item ? (
              <tr key={`f${item.fold}`} className={styles.fold} onClick={() => setExpanded(new Set([...expanded, item.fold]))}>
                <td colSpan={4}>⋯ {item.count} unchanged lines</td>
              </tr>
            ) : (
              <tr key={n}>
                <td className={styles.no}>{item.row.leftNo ?? ""}</td>
                <td className={item.row.kind === "removed" || item.row.kind === "changed" ? styles.del : undefined}>
                  {item.row.left ?? ""}
                </td>
                <td className={styles.no}>{item.row.rightNo ?? ""}</td>
                <td className={item.row.kind === "added" || item.row.kind === "changed" ? styles.add : undefined}>
                  {item.row.right ?? ""}
                </td>
              </tr>
            ),
          )}
        </tbody>
      </table>
    </div>
  );
}

const short = (hash: string) => hash.slice(0, 8);

export default function PromptPage({ params }: { params: Promise<{ workspaceId: string; owner: string; repo: string }> }) {
  const { workspaceId, owner: rawOwner, repo: rawRepo } = use(params);
  const owner = decodeURIComponent(rawOwner);
  const repo = decodeURIComponent(rawRepo);
  const trpc = useTRPC();
  const prompt = useQuery(trpc.prompts.get.queryOptions({ workspaceId, owner, repo }));
  const commits = useQuery(trpc.prompts.commits.queryOptions({ workspaceId, owner, repo }));
  const list: CommitView[] = commits.data?.commits ?? [];
  const [base, setBase] = useState<string | null>(null);
  const [compare, setCompare] = useState<string | null>(null);
  const compareHash = compare ?? list[0]?.commit_hash ?? null;
  const baseHash = base ?? list.find((c) => c.commit_hash === compareHash)?.parent_commit_hash ?? null;
  const left = list.find((c) => c.commit_hash === baseHash);
  const right = list.find((c) => c.commit_hash === compareHash);
  const rows = useMemo(
    () => (right ? diffLines(left ? stableJson(left.manifest).split("\n") : [], stableJson(right.manifest).split("\n")) : []),
    [left, right],
  );
  if (prompt.error)
    return (
      <div className="page">
        <ErrorState error={prompt.error} title="Could not open this prompt" />
      </div>
    );
  const p = prompt.data;
  return (
    <div className="page">
      <div className="page-header">
        <div className="col" style={{ gap: 2, minWidth: 0 }}>
          <div className="crumbs">
            <Link href={`/o/${workspaceId}/prompts`}>Prompts</Link>
            <span className="sep">/</span>
            <span>{owner}</span>
            <span className="sep">/</span>
          </div>
          <h1 data-testid="prompt-name">
            {repo}
            {p && p.repo_type !== "prompt" && (
              <span className="badge badge-accent" style={{ marginLeft: 8, verticalAlign: "middle" }} data-testid="repo-kind">
                {p.repo_type}
              </span>
            )}
          </h1>
          {p?.description && <div className="subtitle">{p.description}</div>}
        </div>
        {p && (
          <div className="row muted">
            {p.num_commits} commits · {p.num_downloads} pulls{p.is_public ? " · public" : ""}
            {compareHash && p.repo_type === "prompt" && (
              <Link
                className="btn btn-sm"
                href={`/o/${workspaceId}/playground?prompt=${encodeURIComponent(`${owner}/${repo}:${compareHash}`)}`}
              >
                Open in playground
              </Link>
            )}
          </div>
        )}
      </div>
      {commits.isPending ? (
        <LoadingState label="Loading commits…" />
      ) : commits.error ? (
        <ErrorState error={commits.error} retry={() => commits.refetch()} />
      ) : list.length === 0 ? (
        <EmptyState title="No commits yet">Push with the SDK to create the first commit.</EmptyState>
      ) : (
        <div className={styles.layout}>
          <div className="card">
            <div className="row" style={{ padding: "8px 12px", borderBottom: "1px solid var(--border)" }}>
              <h3>History</h3>
              <span className="grow" />
              <span className="faint" style={{ fontSize: 11 }}>
                pick two to compare
              </span>
            </div>
            <ol className={styles.commits} data-testid="prompt-commits">
              {list.map((c, i) => (
                <li
                  key={c.id}
                  className={styles.commit}
                  data-base={c.commit_hash === baseHash ? "" : undefined}
                  data-compare={c.commit_hash === compareHash ? "" : undefined}
                >
                  <code>{short(c.commit_hash)}</code>
                  <span className="faint" title={formatExactTime(c.created_at)}>
                    {relativeTime(c.created_at)}
                    {i === 0 ? " · latest" : ""}
                  </span>
                  {c.description && <span className={styles.commitDesc}>{c.description}</span>}
                  <span className={styles.picks}>
                    <button
                      type="button"
                      className={styles.pick}
                      aria-pressed={c.commit_hash === baseHash}
                      onClick={() => setBase(c.commit_hash)}
                    >
                      base
                    </button>
                    <button
                      type="button"
                      className={styles.pick}
                      aria-pressed={c.commit_hash === compareHash}
                      onClick={() => setCompare(c.commit_hash)}
                    >
                      compare
                    </button>
                  </span>
                </li>
              ))}
            </ol>
          </div>
          <div className="col" style={{ gap: 12, minWidth: 0 }}>
            {!right ? (
              <Spinner />
            ) : (
              <>
                <DiffTable
                  key={`${baseHash}-${compareHash}`}
                  rows={rows}
                  left={left ? `${short(left.commit_hash)} (base)` : "(no earlier commit)"}
                  right={`${short(right.commit_hash)}${right === list[0] ? " (latest)" : ""}`}
                />
                <JsonView value={right.manifest} title={`Manifest of ${short(right.commit_hash)}`} />
              </>
            )}
          </div>
        </div>
      )}
    </div>
  );
}
