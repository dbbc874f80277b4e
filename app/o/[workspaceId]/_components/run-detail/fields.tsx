"use client";

import { useState } from "react";
import { JsonView } from "../conversation/json-view";
import { Markdown } from "../conversation/markdown";
import styles from "./run-detail.module.css";

type Scalar = string | number | boolean | null;

/** A flat object of a few scalar fields: what most chain and tool inputs and outputs are. */
function flatFields(value: unknown): [string, Scalar][] | null {
  if (!value || typeof value !== "object" || Array.isArray(value)) return null;
  const entries = Object.entries(value);
  if (entries.length === 0 || entries.length > 20) return null;
  return entries.every(([, v]) => v === null || ["string", "number", "boolean"].includes(typeof v))
    ? (entries as [string, Scalar][])
    : null;
}

/** Inputs or outputs: flat fields read as labelled text (strings as safe Markdown), anything else as a JSON tree; a toggle shows the raw JSON. */
export function FieldsView({ value, title }: { value: unknown; title: string }) {
  const fields = flatFields(value);
  const [raw, setRaw] = useState(false);
  if (!fields) return <JsonView value={value ?? null} title={title} />;
  if (raw) return <JsonView value={value} title={title} initialRaw />;
  return (
    <div className={styles.fieldsBlock}>
      <div className="row">
        <h3 className={styles.sectionTitle} style={{ margin: 0 }}>
          {title}
        </h3>
        <span className="grow" />
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => setRaw(true)}>
          Raw
        </button>
      </div>
      <dl className={styles.kv}>
        {fields.map(([key, v]) => (
          <div key={key}>
            <dt>{key}</dt>
            <dd>{typeof v === "string" ? <Markdown text={v} /> : <code>{String(v)}</code>}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
