"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/trpc-client";
import type { ModelPriceWire } from "@/server/llm/workspace-prices";
import { ErrorState, LoadingState } from "../ui";
import styles from "./settings.module.css";

const TYPES = [
  ["input", "Input"],
  ["output", "Output"],
  ["cache_read", "Cache read"],
  ["cache_write", "Cache write"],
  ["reasoning", "Reasoning"],
] as const;

const USD = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 4 });
const price = (v: number | null | undefined) => (v === null || v === undefined ? "–" : USD.format(v));

function PriceTable({ rows, onDelete }: { rows: ModelPriceWire[]; onDelete?: (id: string) => void }) {
  return (
    <div className="card" style={{ overflow: "auto", maxHeight: 420 }}>
      <table className="table">
        <thead>
          <tr>
            <th>Name</th>
            <th>Model pattern</th>
            <th>Provider</th>
            {TYPES.map(([, label]) => (
              <th key={label} className="num">
                {label}
              </th>
            ))}
            <th>From</th>
            {onDelete && <th />}
          </tr>
        </thead>
        <tbody>
          {rows.map((p) => (
            <tr key={p.id}>
              <td>{p.name}</td>
              <td>
                <code>{p.match_pattern}</code>
              </td>
              <td>{p.provider ?? <span className="faint">any</span>}</td>
              {TYPES.map(([k]) => (
                <td key={k} className="num">
                  {price(p.prices[k])}
                </td>
              ))}
              <td>{p.start_date ? p.start_date.slice(0, 10) : <span className="faint">always</span>}</td>
              {onDelete && (
                <td className="num">
                  <button type="button" className="btn btn-sm btn-ghost btn-danger" onClick={() => onDelete(p.id)}>
                    Delete
                  </button>
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function ModelPrices({ workspaceId, role }: { workspaceId: string; role: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.settings.prices.list.queryOptions({ workspaceId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.settings.prices.list.queryKey({ workspaceId }) });
  const [form, setForm] = useState({ name: "", match_pattern: "", provider: "", input: "", output: "", cache_read: "" });
  const create = useMutation(
    trpc.settings.prices.create.mutationOptions({
      onSuccess: () => {
        setForm({ name: "", match_pattern: "", provider: "", input: "", output: "", cache_read: "" });
        refresh();
      },
    }),
  );
  const remove = useMutation(trpc.settings.prices.delete.mutationOptions({ onSuccess: refresh }));
  const num = (v: string) => (v.trim() === "" ? null : Number(v));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate({
      workspaceId,
      price: {
        name: form.name,
        match_pattern: form.match_pattern,
        provider: form.provider.trim() || null,
        prices: { input: num(form.input), output: num(form.output), cache_read: num(form.cache_read) },
      },
    });
  };
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm({ ...form, [key]: e.target.value });
  const rows = (list.data ?? []) as ModelPriceWire[];
  const own = rows.filter((p) => p.source === "workspace");
  const shipped = rows.filter((p) => p.source === "shipped");
  return (
    <section className={styles.section} aria-labelledby="prices-title">
      <div className={styles.sectionHead}>
        <div>
          <h2 id="prices-title">Model prices</h2>
          <p className="muted">
            USD per 1M tokens. Your prices are tried before the shipped table, for runs ingested from now on; costs sent by the caller
            always win.
          </p>
        </div>
      </div>
      {role === "admin" && (
        <form className={styles.inlineForm} onSubmit={submit} aria-label="Add a model price">
          <input className="input" placeholder="Name" value={form.name} onChange={set("name")} required aria-label="Price name" />
          <input
            className="input"
            placeholder="Model pattern (regex)"
            value={form.match_pattern}
            onChange={set("match_pattern")}
            required
            aria-label="Model pattern"
          />
          <input
            className="input"
            placeholder="Provider (optional)"
            value={form.provider}
            onChange={set("provider")}
            aria-label="Provider"
            style={{ width: 160 }}
          />
          <input
            className="input"
            placeholder="Input"
            inputMode="decimal"
            value={form.input}
            onChange={set("input")}
            aria-label="Input price"
            style={{ width: 80 }}
          />
          <input
            className="input"
            placeholder="Output"
            inputMode="decimal"
            value={form.output}
            onChange={set("output")}
            aria-label="Output price"
            style={{ width: 80 }}
          />
          <input
            className="input"
            placeholder="Cache read"
            inputMode="decimal"
            value={form.cache_read}
            onChange={set("cache_read")}
            aria-label="Cache read price"
            style={{ width: 90 }}
          />
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            Add price
          </button>
        </form>
      )}
      {(create.error || remove.error) && (
        <div className="err-text" role="alert">
          {(create.error ?? remove.error)!.message}
        </div>
      )}
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} retry={() => list.refetch()} />
      ) : (
        <>
          {own.length === 0 ? (
            <p className="muted">No workspace prices: the shipped table is used.</p>
          ) : (
            <PriceTable rows={own} onDelete={role === "admin" ? (id) => remove.mutate({ workspaceId, id }) : undefined} />
          )}
          <details className={styles.details}>
            <summary>Shipped prices ({shipped.length})</summary>
            <PriceTable rows={shipped} />
          </details>
        </>
      )}
    </section>
  );
}
