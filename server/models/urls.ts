/** `https://host/v1` → `https://host/v1/chat/completions`; a URL already ending in /chat/completions is used as is. */
export function completionsUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return /\/chat\/completions$/.test(trimmed) ? trimmed : `${trimmed}/chat/completions`;
}

/** `https://api.anthropic.com` → `…/v1/messages`; a base ending in /v1 gets `/messages`. */
export function messagesUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  if (/\/messages$/.test(trimmed)) return trimmed;
  return /\/v1$/.test(trimmed) ? `${trimmed}/messages` : `${trimmed}/v1/messages`;
}
