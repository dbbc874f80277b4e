"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { use, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import { formatCount, formatExactTime, relativeTime } from "../_components/format";
import { EmptyState, ErrorState, LoadingState } from "../_components/ui";
import { CsvUpload } from "./csv-upload";
import styles from "./datasets.module.css";

export default function DatasetsPage({ params }: { params: Promise<{ workspaceId: string }> }) {
  const { workspaceId } = use(params);
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState("");
  const [creating, setCreating] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const list = useQuery({
    ...trpc.datasets.list.queryOptions({ workspaceId, nameContains: search.trim() || undefined }),
    placeholderData: (p) => p,
  });
  const create = useMutation(
    trpc.datasets.create.mutationOptions({
      onSuccess: (made) => {
        queryClient.invalidateQueries({ queryKey: trpc.datasets.list.pathKey() });
        router.push(`/o/${workspaceId}/datasets/${made.id}`);
      },
    }),
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({ workspaceId, dataset: { name: name.trim(), description: description.trim() || null } });
  };
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Datasets</h1>
          <div className="subtitle">Examples to test and evaluate against, collected from runs, files or the SDK.</div>
        </div>
        <div className={styles.toolbar}>
          <input
            className="input"
            placeholder="Search datasets"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            aria-label="Search datasets"
          />
          <button type="button" className="btn" onClick={() => (setUploading(!uploading), setCreating(false))}>
            From CSV
          </button>
          <button type="button" className="btn btn-primary" onClick={() => (setCreating(!creating), setUploading(false))}>
            New dataset
          </button>
        </div>
      </div>
      {uploading && <CsvUpload workspaceId={workspaceId} onCancel={() => setUploading(false)} />}
      {creating && (
        <form className={`card ${styles.createForm}`} onSubmit={submit}>
          <input
            className="input"
            placeholder="Name"
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            aria-label="Dataset name"
          />
          <input
            className="input grow"
            placeholder="Description (optional)"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            aria-label="Description"
          />
          <button type="submit" className="btn btn-primary" disabled={!name.trim() || create.isPending}>
            Create
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setCreating(false)}>
            Cancel
          </button>
          {create.error && (
            <span className="err-text" role="alert">
              {create.error.message}
            </span>
          )}
        </form>
      )}
      {list.isPending ? (
        <LoadingState label="Loading datasets…" />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <EmptyState title={search ? "No dataset matches" : "No datasets yet"}>
          {search ? "Try another name." : "Create one here, add runs to a dataset from the run view, or upload examples with the SDK."}
        </EmptyState>
      ) : (
        <div className="card" style={{ overflow: "auto" }}>
          <table className="table" data-testid="datasets">
            <thead>
              <tr>
                <th>Name</th>
                <th>Description</th>
                <th>Type</th>
                <th className="num">Examples</th>
                <th className="num">Experiments</th>
                <th>Modified</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((d) => (
                <tr key={d.id} className="row-link" onClick={() => router.push(`/o/${workspaceId}/datasets/${d.id}`)}>
                  <td>
                    <Link href={`/o/${workspaceId}/datasets/${d.id}`} onClick={(e) => e.stopPropagation()}>
                      {d.name}
                    </Link>
                  </td>
                  <td className="truncate muted" style={{ maxWidth: 360 }}>
                    {d.description ?? ""}
                  </td>
                  <td>
                    <span className="badge">{d.data_type}</span>
                  </td>
                  <td className="num">{formatCount(d.example_count)}</td>
                  <td className="num">{formatCount(d.session_count)}</td>
                  <td title={formatExactTime(d.modified_at)}>{relativeTime(d.modified_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
