/** Only same-site paths are followed after sign-in ("/x", never "//host" or "https://..."). */
export function safeCallback(value: string | undefined | null): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  return value;
}

export function firstParam(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
