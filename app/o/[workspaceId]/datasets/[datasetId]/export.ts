import type { RouterOutputs } from "@/app/trpc-types";
import { csvCell } from "../../_components/download";

type ExampleView = RouterOutputs["datasets"]["examples"][number];

/** Examples as JSON Lines, one object per line with the SDK's field names. */
export function examplesJsonl(examples: ExampleView[]): string {
  return examples.map((e) => JSON.stringify({ id: e.id, inputs: e.inputs, outputs: e.outputs, metadata: e.metadata })).join("\n") + "\n";
}

/** Examples as CSV: a column per input and output key (`inputs.question`, `outputs.answer`), JSON for non-text values. */
export function examplesCsv(examples: ExampleView[]): string {
  const keys = (pick: (e: ExampleView) => unknown) => [
    ...new Set(examples.flatMap((e) => Object.keys((pick(e) as Record<string, unknown>) ?? {}))),
  ];
  const inputKeys = keys((e) => e.inputs);
  const outputKeys = keys((e) => e.outputs);
  const header = ["id", ...inputKeys.map((k) => `inputs.${k}`), ...outputKeys.map((k) => `outputs.${k}`), "split"];
  const lines = [header.map(csvCell).join(",")];
  for (const e of examples) {
    const inputs = (e.inputs ?? {}) as Record<string, unknown>;
    const outputs = (e.outputs ?? {}) as Record<string, unknown>;
    const split = e.metadata?.dataset_split;
    lines.push(
      [e.id, ...inputKeys.map((k) => inputs[k]), ...outputKeys.map((k) => outputs[k]), Array.isArray(split) ? split.join(" ") : split]
        .map(csvCell)
        .join(","),
    );
  }
  return `${lines.join("\r\n")}\r\n`;
}
