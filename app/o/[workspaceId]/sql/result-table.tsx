"use client";

import type { RouterOutputs } from "@/app/trpc-types";
import styles from "./sql.module.css";

type Result = RouterOutputs["sql"]["query"];

function Cell({ value }: { value: unknown }) {
  if (value === null) return <span className={styles.null}>null</span>;
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return <span title={text.length > 60 ? text.slice(0, 2000) : undefined}>{text}</span>;
}

/** The rows as answered, each column headed by its name and how its values are encoded. */
export function ResultTable({ result }: { result: Result }) {
  return (
    <div className={`card ${styles.results}`}>
      <table className="table" data-testid="sql-results">
        <thead>
          <tr>
            {result.columns.map((column, i) => (
              <th key={i} className={column.data_type === "integer" || column.data_type === "float" ? "num" : undefined}>
                {column.name}
                <span className={styles.type}>{column.data_type}</span>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {result.rows.map((row, r) => (
            <tr key={r}>
              {row.map((value, c) => {
                const type = result.columns[c]?.data_type;
                return (
                  <td
                    key={c}
                    className={`${type === "integer" || type === "float" ? "num" : ""} ${type === "object" || type === "list" || type === "uuid" ? "mono" : ""}`}
                  >
                    <Cell value={value} />
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
