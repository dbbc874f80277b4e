"use client";

import { useEffect, useMemo, useRef, useState } from "react";
import styles from "./runs.module.css";
import { buildChip, chipsToFilter, describeChip, FIELD_CHOICES, fieldChoice, OP_LABELS, parseForBuilder, type Chip } from "./filter-model";

function AddFilter({ onAdd, onClose }: { onAdd: (chip: Chip) => void; onClose: () => void }) {
  const [field, setField] = useState("name");
  const choice = fieldChoice(field)!;
  const [op, setOp] = useState(choice.ops[0]);
  const [key, setKey] = useState("");
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const ref = useRef<HTMLFormElement>(null);

  useEffect(() => {
    const onDown = (e: MouseEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) onClose();
    };
    document.addEventListener("mousedown", onDown);
    return () => document.removeEventListener("mousedown", onDown);
  }, [onClose]);

  const pickField = (next: string) => {
    const c = fieldChoice(next)!;
    setField(next);
    setOp(c.ops[0]);
    setValue(c.kind === "enum" || c.kind === "bool" ? c.options![0] : "");
    setProblem(null);
  };

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const chip = buildChip(field, op, value, key);
    if (typeof chip === "string") return setProblem(chip);
    onAdd(chip);
  };

  const needsKey = field === "metadata" || field === "feedback";
  return (
    <form
      ref={ref}
      className={`card ${styles.popover}`}
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === "Escape") onClose();
      }}
      data-testid="filter-form"
    >
      <div className={styles.formRow}>
        <select className="select" value={field} onChange={(e) => pickField(e.target.value)} aria-label="Field" autoFocus>
          {FIELD_CHOICES.map((f) => (
            <option key={f.field} value={f.field}>
              {f.label}
            </option>
          ))}
        </select>
        {choice.ops.length > 1 ? (
          <select className="select" value={op} onChange={(e) => setOp(e.target.value)} aria-label="Operator">
            {choice.ops.map((o) => (
              <option key={o} value={o}>
                {OP_LABELS[o] ?? o}
              </option>
            ))}
          </select>
        ) : null}
      </div>
      {needsKey ? (
        <input
          className="input"
          placeholder={field === "metadata" ? "metadata key" : "feedback key"}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          aria-label="Key"
        />
      ) : null}
      {choice.kind === "enum" || choice.kind === "bool" ? (
        <select className="select" value={value || choice.options![0]} onChange={(e) => setValue(e.target.value)} aria-label="Value">
          {choice.options!.map((o) => (
            <option key={o} value={o}>
              {choice.kind === "bool" ? (o === "true" ? "has an error" : "has no error") : o}
            </option>
          ))}
        </select>
      ) : (
        <input
          className="input"
          placeholder={choice.placeholder}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-label="Value"
        />
      )}
      {problem ? (
        <div className="err-text" style={{ fontSize: 12 }}>
          {problem}
        </div>
      ) : null}
      <div className="row" style={{ justifyContent: "flex-end" }}>
        <button type="button" className="btn btn-sm btn-ghost" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="btn btn-sm btn-primary">
          Add filter
        </button>
      </div>
    </form>
  );
}

/**
 * The runs filter: chips built visually, or the filter language typed raw. Both edit the same
 * string, which lives in the URL.
 */
export function FilterBar({ filter, onChange }: { filter: string; onChange: (filter: string) => void }) {
  const parsed = useMemo(() => parseForBuilder(filter), [filter]);
  const chips = parsed.ok ? parsed.chips : null;
  const [adding, setAdding] = useState(false);
  const [rawOpen, setRawOpen] = useState(chips === null && filter !== "");
  const [draft, setDraft] = useState(filter);
  useEffect(() => setDraft(filter), [filter]);
  const draftParsed = useMemo(() => parseForBuilder(draft), [draft]);

  const apply = () => {
    if (draftParsed.ok) onChange(draft.trim());
  };

  return (
    <div className="col" style={{ gap: 6 }}>
      <div className={styles.filterRow} data-testid="filter-bar">
        <span className={styles.filterIcon} aria-hidden>
          <svg width="14" height="14" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.4" strokeLinecap="round">
            <path d="M2.5 4h11M4.5 8h7M6.5 12h3" />
          </svg>
        </span>
        {chips ? (
          chips.map((chip, i) => {
            const d = describeChip(chip);
            return (
              <span key={i} className={styles.chip} data-testid="filter-chip">
                <span className={styles.chipField}>{d.field}</span>
                {d.op ? <span className={styles.chipOp}>{d.op}</span> : null}
                {d.value ? <span className={styles.chipValue}>{d.value}</span> : null}
                <button
                  type="button"
                  className={styles.chipRemove}
                  aria-label={`Remove filter ${d.field}`}
                  onClick={() => onChange(chipsToFilter(chips.filter((_, j) => j !== i)))}
                >
                  ×
                </button>
              </span>
            );
          })
        ) : (
          <span className={styles.chip} title={filter}>
            <span className={styles.chipField}>Custom filter</span>
            <span className={`${styles.chipValue} mono truncate`} style={{ maxWidth: 360 }}>
              {filter}
            </span>
            <button type="button" className={styles.chipRemove} aria-label="Remove filter" onClick={() => onChange("")}>
              ×
            </button>
          </span>
        )}
        <span className="menu-wrap">
          <button
            type="button"
            className="btn btn-sm btn-ghost"
            onClick={() => setAdding(!adding)}
            disabled={!chips}
            title={chips ? undefined : "Edit the raw filter to change a custom filter"}
          >
            + Filter
          </button>
          {adding && chips ? (
            <AddFilter
              onClose={() => setAdding(false)}
              onAdd={(chip) => {
                setAdding(false);
                onChange(chipsToFilter([...chips, chip]));
              }}
            />
          ) : null}
        </span>
        <span className="grow" />
        {filter ? (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => onChange("")}>
            Clear
          </button>
        ) : null}
        <button
          type="button"
          className="btn btn-sm"
          aria-pressed={rawOpen}
          onClick={() => setRawOpen(!rawOpen)}
          data-testid="raw-filter-toggle"
        >
          {"{ }"} Raw
        </button>
      </div>
      {rawOpen ? (
        <div className="col" style={{ gap: 4 }}>
          <div className="row">
            <input
              className={`input mono grow ${draftParsed.ok ? "" : "input-error"}`}
              value={draft}
              spellCheck={false}
              placeholder='and(eq(run_type, "llm"), gt(latency, "5s"))'
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") apply();
              }}
              aria-label="Raw filter"
              data-testid="raw-filter"
            />
            <button type="button" className="btn btn-sm btn-primary" onClick={apply} disabled={!draftParsed.ok || draft.trim() === filter}>
              Apply
            </button>
          </div>
          {draftParsed.ok ? (
            <div className="faint" style={{ fontSize: 11.5 }}>
              Operators: and, or, not, eq, neq, gt, gte, lt, lte, has, in, like, search, exists. Press Enter to apply.
            </div>
          ) : (
            <div className="err-text mono" style={{ fontSize: 11.5, whiteSpace: "pre", overflowX: "auto" }} role="alert">
              {`${draft}\n${" ".repeat(Math.max(0, draftParsed.position))}^ ${draftParsed.reason}`}
            </div>
          )}
        </div>
      ) : null}
    </div>
  );
}
