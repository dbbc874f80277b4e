import { isRecord, parsed, str, withPrefix } from "../attrs";
import { asUuid } from "../ids";
import type { OtlpSpan } from "../otlp";
import { RUN_TYPES, type Adapter, type Draft, type RunType } from "./types";

/** The SDK stringifies dict and list metadata values; scalars stay as they are. */
function metadataValue(value: unknown): unknown {
  if (typeof value === "string" && /^\s*[[{]/.test(value)) return parsed(value);
  return value;
}

function runType(value: string | undefined): RunType | undefined {
  const lower = value?.trim().toLowerCase();
  return RUN_TYPES.find((t) => t === lower);
}

/** LangSmith's own attributes (`langsmith.*`), as its SDKs and docs write them. */
export const langsmithAdapter: Adapter = {
  name: "langsmith",
  prefixes: ["langsmith."],
  map(span: OtlpSpan): Draft {
    const a = span.attributes;
    const metadata: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(withPrefix(a, "langsmith.metadata."))) metadata[key] = metadataValue(value);
    const runName = metadata.ls_run_name;
    delete metadata.ls_run_name;
    const usage = parsed(a["langsmith.usage_metadata"]);
    const tags = str(a, "langsmith.span.tags")
      ?.split(",")
      .map((t) => t.trim())
      .filter(Boolean);
    return {
      name: str(a, "langsmith.trace.name") ?? (typeof runName === "string" ? runName : undefined),
      runType: runType(str(a, "langsmith.span.kind")),
      runId: asUuid(a["langsmith.span.id"]) ?? undefined,
      traceId: asUuid(a["langsmith.trace.id"]) ?? undefined,
      parentRunId: asUuid(a["langsmith.span.parent_id"]) ?? undefined,
      dottedOrder: str(a, "langsmith.span.dotted_order"),
      tags,
      metadata,
      usage: isRecord(usage) ? usage : undefined,
      sessionName: str(a, "langsmith.trace.session_name"),
      sessionId: asUuid(a["langsmith.trace.session_id"]) ?? undefined,
      referenceExampleId: asUuid(a["langsmith.reference_example_id"]) ?? undefined,
    };
  },
};
