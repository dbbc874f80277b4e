"use client";

import dynamic from "next/dynamic";
import { useSyncExternalStore } from "react";
import { z } from "zod";
import type { Theme } from "../../_theme/theme";
import "@scalar/api-reference-react/style.css";

// The page's CSP has no 'unsafe-eval': zod (which the renderer validates its settings with) must not
// try to compile checks with new Function.
z.config({ jitless: true });

// Scalar's renderer mounts a Vue app in the browser only.
const ApiReferenceReact = dynamic(() => import("@scalar/api-reference-react").then((m) => m.ApiReferenceReact), { ssr: false });

const DARK = "(prefers-color-scheme: dark)";
const subscribe = (change: () => void) => {
  const query = window.matchMedia(DARK);
  query.addEventListener("change", change);
  return () => query.removeEventListener("change", change);
};

/** Scalar's API reference over /openapi.json, in the user's theme, talking to nothing but this origin. */
export function Reference({ theme }: { theme: Theme }) {
  const systemDark = useSyncExternalStore(
    subscribe,
    () => window.matchMedia(DARK).matches,
    () => false,
  );
  const dark = theme === "dark" || (theme === "system" && systemDark);
  return (
    <ApiReferenceReact
      configuration={{
        url: "/openapi.json",
        title: "Tracelight API",
        forceDarkModeState: dark ? "dark" : "light",
        hideDarkModeToggle: true,
        withDefaultFonts: false,
        telemetry: false,
        // Scalar's hosted extras (AI chat, SDK generation, its toolbar) would call its services.
        agent: { disabled: true },
        mcp: { disabled: true },
        showDeveloperTools: "never",
        hideModels: false,
        documentDownloadType: "json",
        persistAuth: false,
        authentication: { preferredSecurityScheme: "apiKey" },
      }}
    />
  );
}
