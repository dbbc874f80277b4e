"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use, useState } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { RouterInputs } from "@/app/trpc-types";
import { formatCount, formatExactTime, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";

type Kind = RouterInputs["prompts"]["list"]["kind"];

const KINDS: { kind: Kind; label: string }[] = [
  { kind: undefined, label: "All" },
  { kind: "prompt", label: "Prompts" },
  { kind: "agent", label: "Agents" },
  { kind: "skill", label: "Skills" },
];

export default function PromptsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const router = useRouter();
  const [search, setSearch] = useState("");
  const [kind, setKind] = useState<Kind>(undefined);
  const list = useQuery({
    ...trpc.prompts.list.queryOptions({ workspaceId, query: search.trim() || undefined, kind }),
    placeholderData: (p) => p,
  });
  const href = (owner: string, repo: string) => `/o/${workspaceId}/prompts/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Prompts</h1>
          <div className="subtitle">
            Versioned prompts, agents and skills pushed with the SDK: every push is a commit you can pull by hash or tag.
          </div>
        </div>
        <div className="row">
          <div className="segmented" role="group" aria-label="Kind">
            {KINDS.map((k) => (
              <button key={k.label} type="button" aria-pressed={kind === k.kind} onClick={() => setKind(k.kind)}>
                {k.label}
              </button>
            ))}
          </div>
          <input
            className="input"
            placeholder="Search prompts"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-label="Search prompts"
          />
        </div>
      </div>
      {list.isPending ? (
        <LoadingState label="Loading prompts…" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.repos.length === 0 ? (
        <EmptyState title={search || kind ? "Nothing matches" : "No prompts yet"}>
          {search || kind ? (
            "Try another name or kind."
          ) : (
            <>
              Push one with the SDK, e.g. <code>client.pushPrompt(&quot;my-prompt&quot;, {"{ object: prompt }"})</code>.
            </>
          )}
        </EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="prompts">
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>Tags</th>
                <th className="num">Commits</th>
                <th>Latest</th>
                <th>Updated</th>
              </tr>
            </thead>
            <tbody>
              {list.data.repos.map((p) => (
                <tr key={p.id} className="row-link" onClick={() => router.push(href(p.owner, p.repo_handle))}>
                  <td>
                    <Link href={href(p.owner, p.repo_handle)} onClick={(e) => e.stopPropagation()}>
                      {p.repo_handle}
                    </Link>
                    {p.repo_type !== "prompt" && (
                      <span className="badge badge-accent" style={{ marginLeft: 6 }} data-testid="repo-kind">
                        {p.repo_type}
                      </span>
                    )}
                    {p.is_public && (
                      <span className="badge" style={{ marginLeft: 6 }}>
                        public
                      </span>
                    )}
                    {p.is_archived && (
                      <span className="badge badge-warn" style={{ marginLeft: 6 }}>
                        archived
                      </span>
                    )}
                  </td>
                  <td className="truncate muted" style={{ maxWidth: 320 }}>
                    {p.description ?? ""}
                  </td>
                  <td>
                    {p.tags.map((t) => (
                      <span key={t} className="badge" style={{ marginRight: 4 }}>
                        {t}
                      </span>
                    ))}
                  </td>
                  <td className="num">{formatCount(p.num_commits)}</td>
                  <td>{p.last_commit_hash ? <code>{p.last_commit_hash.slice(0, 8)}</code> : <span className="faint">–</span>}</td>
                  <td title={formatExactTime(p.updated_at)}>{relativeTime(p.updated_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
