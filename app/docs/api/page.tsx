import type { Metadata } from "next";
import { cookies } from "next/headers";
import { parseTheme, THEME_COOKIE } from "../../_theme/theme";
import { Reference } from "./reference";

export const metadata: Metadata = { title: "API reference" };

/** The REST API's reference, rendered from GET /openapi.json (generated from the routes' schemas). */
export default async function ApiReferencePage() {
  const theme = parseTheme((await cookies()).get(THEME_COOKIE)?.value);
  return <Reference theme={theme} />;
}
