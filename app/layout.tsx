import type { Metadata } from "next";
import { cookies } from "next/headers";
import type { ReactNode } from "react";
import "./globals.css";
import { parseTheme, THEME_COOKIE } from "./_theme/theme";
import { Providers } from "./providers";

export const metadata: Metadata = {
  title: { default: "Tracelight", template: "%s · Tracelight" },
  description: "Tracing and observability for LLM applications",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <body>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
