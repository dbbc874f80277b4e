import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { formatCost, formatLatency, formatTime, formatTokens } from "@/app/o/[workspaceId]/_components/format";
import { JsonView } from "@/app/o/[workspaceId]/_components/conversation/json-view";
import { RunTypeBadge, StatusBadge } from "@/app/o/[workspaceId]/_components/ui";
import { orNotFound, serverTrpc } from "@/app/_trpc/server";
import type { PublicRunTree } from "@/server/sharing/public-runs";
import styles from "./share.module.css";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Shared", robots: { index: false } };

type Props = { params: Promise<{ token: string; view: string }>; searchParams: Promise<{ run?: string }> };

function flatten(node: PublicRunTree, depth = 0, out: { run: PublicRunTree; depth: number }[] = []) {
  out.push({ run: node, depth });
  for (const child of node.child_runs) flatten(child, depth + 1, out);
  return out;
}

const seconds = (run: PublicRunTree) =>
  run.end_time && run.start_time ? (Date.parse(run.end_time) - Date.parse(run.start_time)) / 1000 : null;

async function SharedTrace({ token, selected }: { token: string; selected?: string }) {
  // A missing or revoked link is the 404 page, never an error page.
  const root = await orNotFound((await serverTrpc()).api.sharing.publicTrace({ token }));
  const rows = flatten(root);
  const run = rows.find((r) => r.run.id === selected)?.run ?? root;
  return (
    <div className={styles.layout} data-testid="shared-trace">
      <nav className={styles.tree} aria-label="Runs of this trace">
        {rows.map(({ run: r, depth }) => (
          <Link
            key={r.id}
            href={`?run=${r.id}`}
            className={styles.row}
            aria-current={r.id === run.id ? "true" : undefined}
            style={{ paddingLeft: 12 + depth * 16 }}
          >
            <RunTypeBadge runType={r.run_type} />
            <span className={styles.name}>{r.name}</span>
            {r.error ? <span className="badge badge-error">error</span> : null}
            <span className={styles.meta}>{formatLatency(seconds(r))}</span>
          </Link>
        ))}
      </nav>
      <article className={styles.detail} data-testid="shared-run">
        <div className="row">
          <h2>{run.name}</h2>
          <RunTypeBadge runType={run.run_type} />
          <StatusBadge status={run.status} error={run.error} />
        </div>
        <div className={styles.stats}>
          <span>
            Started <b>{formatTime(run.start_time)}</b>
          </span>
          <span>
            Latency <b>{formatLatency(seconds(run))}</b>
          </span>
          <span>
            Tokens <b>{formatTokens(run.total_tokens)}</b>
          </span>
          <span>
            Cost <b>{formatCost(run.total_cost)}</b>
          </span>
        </div>
        {run.error ? <pre className={styles.error}>{run.error}</pre> : null}
        <JsonView value={run.inputs} title="Inputs" />
        <JsonView value={run.outputs} title="Outputs" />
      </article>
    </div>
  );
}

async function SharedDataset({ token }: { token: string }) {
  const { dataset, examples } = await orNotFound((await serverTrpc()).api.sharing.publicDataset({ token }));
  return (
    <div className={styles.page} data-testid="shared-dataset">
      <h2>{String(dataset.name)}</h2>
      {dataset.description ? <p className="muted">{String(dataset.description)}</p> : null}
      <p className="muted">
        {String(dataset.example_count ?? examples.length)} examples{examples.length === 100 ? " (the first 100 shown)" : ""}
      </p>
      <div className="col" style={{ gap: 12 }}>
        {examples.map((e) => (
          <section key={String(e.id)} className="card" style={{ padding: 12 }}>
            <JsonView value={e.inputs} title="Inputs" />
            <JsonView value={e.outputs} title="Outputs" />
          </section>
        ))}
      </div>
    </div>
  );
}

/** The read-only page behind the SDKs' share links: `/public/{token}/r` (a trace) and `/public/{token}/d` (a dataset). */
export default async function SharedPage({ params, searchParams }: Props) {
  const { token, view } = await params;
  if (view !== "r" && view !== "d") notFound();
  return (
    <div className={styles.frame}>
      <header className={styles.header}>
        <span className="brand">
          <span className="brand-mark">T</span>Tracelight
        </span>
        <span className="muted">Shared {view === "r" ? "trace" : "dataset"} · read-only</span>
      </header>
      {view === "r" ? <SharedTrace token={token} selected={(await searchParams).run} /> : <SharedDataset token={token} />}
    </div>
  );
}
