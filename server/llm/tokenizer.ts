import { createRequire } from "node:module";

/**
 * Token estimates for runs that report no usage. The BPE data ships inside gpt-tokenizer (no
 * network); each encoding is loaded on first use only.
 */
type Counter = (text: string) => number;
const require = createRequire(import.meta.url);
const counters = new Map<string, Counter>();

function counterFor(encoding: "o200k_base" | "cl100k_base"): Counter {
  let counter = counters.get(encoding);
  if (!counter) {
    // Each path written out: the bundler leaves a plain specifier of an external package to Node,
    // where a template would make it bundle every encoding the pattern matches (twice, 15 MB).
    const mod = (
      encoding === "o200k_base" ? require("gpt-tokenizer/cjs/encoding/o200k_base") : require("gpt-tokenizer/cjs/encoding/cl100k_base")
    ) as { countTokens: Counter };
    counter = (text) => mod.countTokens(text);
    counters.set(encoding, counter);
  }
  return counter;
}

/** o200k for the GPT-4o / 4.1 / 5 and o-series generation, cl100k for everything else. */
export function encodingFor(model: string | null): "o200k_base" | "cl100k_base" {
  return model && /(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|^o\d|\/o\d|chatgpt-4o)/i.test(model) ? "o200k_base" : "cl100k_base";
}

export function countTokens(text: string, model: string | null): number {
  return text ? counterFor(encodingFor(model))(text) : 0;
}
