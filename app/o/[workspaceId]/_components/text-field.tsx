import type { InputHTMLAttributes } from "react";
import grid from "./form-grid.module.css";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "value" | "onChange" | "className">;

/** A labelled input of a form grid (form-grid.module.css): the label above, the value as a string. */
export function TextField({
  label,
  value,
  onChange,
  wide,
  mono,
  ...input
}: InputProps & { label: string; value: string; onChange: (value: string) => void; wide?: boolean; mono?: boolean }) {
  return (
    <label className={wide ? `${grid.field} ${grid.wide}` : grid.field}>
      {label}
      <input className={mono ? "input mono" : "input"} value={value} onChange={(e) => onChange(e.target.value)} {...input} />
    </label>
  );
}
