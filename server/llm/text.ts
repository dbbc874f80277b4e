type Obj = Record<string, unknown>;
const TEXT_KEYS = ["content", "text", "prompt", "input", "output", "completion", "arguments", "args", "thinking"];

/**
 * The human-readable text of a prompt or completion in any message format, for token estimates:
 * strings under content/text-like keys, in order. Images and other binary blocks count nothing.
 */
export function collectText(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 12 || value === null || value === undefined) return out;
  if (typeof value === "string") {
    out.push(value);
  } else if (Array.isArray(value)) {
    for (const item of value) collectText(item, out, depth + 1);
  } else if (typeof value === "object") {
    const obj = value as Obj;
    if (obj.type === "image" || obj.type === "image_url" || obj.type === "input_image" || "base64" in obj || "inlineData" in obj)
      return out;
    let found = false;
    for (const key of TEXT_KEYS) {
      if (key in obj) {
        found = true;
        collectText(typeof obj[key] === "object" && key.startsWith("arg") ? JSON.stringify(obj[key]) : obj[key], out, depth + 1);
      }
    }
    for (const key of [
      "messages",
      "choices",
      "message",
      "generations",
      "kwargs",
      "parts",
      "contents",
      "tool_calls",
      "function_call",
      "function",
      "data",
      "system",
    ]) {
      if (key in obj) {
        found = true;
        collectText(obj[key], out, depth + 1);
      }
    }
    if (!found && depth === 0) out.push(JSON.stringify(obj));
  }
  return out;
}
