"use client";

import { useEffect, useState, type ReactNode } from "react";
import { THEME_COOKIE, THEMES, parseTheme, type Theme } from "./theme";

const LABELS: Record<Theme, string> = { system: "System", light: "Light", dark: "Dark" };

function currentTheme(): Theme {
  return parseTheme(document.documentElement.dataset.theme);
}

/** Applies a theme at once and remembers it for a year (a cookie, so the server renders it too). */
function applyTheme(next: Theme) {
  if (next === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = next;
  document.cookie = `${THEME_COOKIE}=${next}; path=/; max-age=31536000; samesite=lax`;
  window.dispatchEvent(new CustomEvent("tl-theme", { detail: next }));
}

/** The theme in use, kept in step when another control changes it. */
function useTheme(): [Theme, (t: Theme) => void] {
  const [theme, setTheme] = useState<Theme>("system");
  useEffect(() => {
    setTheme(currentTheme());
    const onChange = (e: Event) => setTheme((e as CustomEvent<Theme>).detail);
    window.addEventListener("tl-theme", onChange);
    return () => window.removeEventListener("tl-theme", onChange);
  }, []);
  return [theme, applyTheme];
}

const NEXT: Record<Theme, Theme> = { system: "light", light: "dark", dark: "system" };

/** One button in the sidebar: System → Light → Dark, its icon showing the theme in use. */
export function ThemeToggle({ icon }: { icon: (name: string) => ReactNode }) {
  const [theme, choose] = useTheme();
  return (
    <button
      type="button"
      className="btn btn-ghost btn-icon theme-toggle"
      onClick={() => choose(NEXT[theme])}
      aria-label={`Theme: ${LABELS[theme]} (switch to ${LABELS[NEXT[theme]]})`}
      title={`Theme: ${LABELS[theme]} — click for ${LABELS[NEXT[theme]]}`}
      data-testid="theme-toggle"
      data-theme-choice={theme}
    >
      {icon(theme === "system" ? "system" : theme === "light" ? "sun" : "moon")}
    </button>
  );
}

/** System / Light / Dark, applied at once and remembered for a year. */
export function ThemeChoice() {
  const [theme, choose] = useTheme();
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
