"use client";

import { useState } from "react";
import { THEME_COOKIE, THEMES, parseTheme, type Theme } from "./theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

function currentTheme(): Theme {
  return parseTheme(document.documentElement.dataset.theme);
}

/** System / Light / Dark, applied at once and remembered for a year. */
export function ThemeChoice() {
  const [theme, setTheme] = useState<Theme>(() => (typeof document === "undefined" ? "system" : currentTheme()));
  const choose = (next: Theme) => {
    setTheme(next);
    if (next === "system") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
    document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
  };
  return (
    <div className="segmented" role="group" aria-label="Theme" data-testid="theme-choice">
      {THEMES.map((t) => (
        <button key={t} type="button" aria-pressed={theme === t} onClick={() => choose(t)}>
          {LABELS[t]}
        </button>
      ))}
    </div>
  );
}
