"use client";

import { Icon } from "../icons";

/** How a feedback key is scored, from the workspace's feedback configs. */
export interface ScoreConfig {
  type: "continuous" | "categorical" | "freeform";
  min?: number | null;
  max?: number | null;
  categories?: { value: number | string; label?: string | null }[] | null;
}

/** Why a score does not fit its key's config, or null when it does. */
export function scoreProblem(config: ScoreConfig | undefined, score: string): string | null {
  if (score.trim() === "") return null;
  const n = Number(score);
  if (!Number.isFinite(n)) return "The score must be a number.";
  if (config?.type === "continuous") {
    if (config.min != null && n < config.min) return `The score must be at least ${config.min}.`;
    if (config.max != null && n > config.max) return `The score must be at most ${config.max}.`;
  }
  return null;
}

function Thumb({ up }: { up: boolean }) {
  return (
    <span className="row" style={{ gap: 4 }}>
      <span style={{ display: "inline-flex", transform: up ? undefined : "rotate(180deg)" }}>
        <Icon name="thumb" size={14} />
      </span>
      {up ? "Up" : "Down"}
    </span>
  );
}

/** Two numeric categories, 0 and 1: a thumbs up / down. */
export const isThumbs = (config: ScoreConfig) =>
  config.type === "categorical" &&
  (config.categories ?? []).length === 2 &&
  (config.categories ?? []).every((c) => typeof c.value === "number" && (c.value === 0 || c.value === 1));

/** A category chosen: numeric categories are scores, the others values. */
export const categoryPick = (value: number | string) =>
  typeof value === "number" ? { score: String(value), value: "" } : { score: "", value };

/** The score widget a key's config asks for: category buttons, a slider with its number, or a free score. */
export function ScoreInput({
  config,
  score,
  value,
  onChange,
}: {
  config: ScoreConfig | undefined;
  score: string;
  value: string;
  onChange: (next: { score?: string; value?: string }) => void;
}) {
  const problem = scoreProblem(config, score);
  if (config?.type === "categorical") {
    const thumbs = isThumbs(config);
    return (
      <div className="segmented" role="group" aria-label="Category" data-testid="feedback-categories" style={{ alignSelf: "flex-start" }}>
        {(config.categories ?? []).map((c) => {
          const picked = typeof c.value === "number" ? score === String(c.value) : value === c.value;
          return (
            <button
              key={String(c.value)}
              type="button"
              aria-pressed={picked}
              aria-label={thumbs && !c.label ? (Number(c.value) === 1 ? "Thumbs up" : "Thumbs down") : undefined}
              onClick={() => onChange(categoryPick(c.value))}
            >
              {c.label || (thumbs ? <Thumb up={Number(c.value) === 1} /> : String(c.value))}
            </button>
          );
        })}
      </div>
    );
  }
  if (config?.type === "continuous") {
    const min = config.min ?? 0;
    const max = config.max ?? 1;
    return (
      <div className="row">
        <input
          type="range"
          min={min}
          max={max}
          step={(max - min) / 100 || 0.01}
          value={score === "" ? min : score}
          aria-label="Score slider"
          onChange={(e) => onChange({ score: e.target.value })}
          style={{ flex: 1 }}
        />
        <input
          className={`input ${problem ? "input-error" : ""}`}
          name="score"
          inputMode="decimal"
          value={score}
          style={{ width: 80 }}
          aria-label="Score"
          placeholder={`${min}–${max}`}
          onChange={(e) => onChange({ score: e.target.value })}
          aria-invalid={!!problem}
        />
      </div>
    );
  }
  if (config?.type === "freeform") return null;
  return (
    <input
      className={`input ${problem ? "input-error" : ""}`}
      name="score"
      inputMode="decimal"
      placeholder="0–1"
      value={score}
      aria-label="Score"
      onChange={(e) => onChange({ score: e.target.value })}
      aria-invalid={!!problem}
    />
  );
}
