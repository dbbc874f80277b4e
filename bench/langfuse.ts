// The bench's runs as a Langfuse ingestion batch (POST /api/public/ingestion), as the `langfuse`
// SDK v3 sends a finished trace: the root run is a trace-create, every other run a
// span-, generation- or tool-create with its trace and parent, usage as `usageDetails`.

type Run = Record<string, any>;

const observationType = (runType: string) => (runType === "llm" ? "generation" : runType === "tool" ? "tool" : "span");

function observation(run: Run, root: Run): Run {
  const llm = run.run_type === "llm";
  const usage = run.outputs?.usage;
  const firstToken = (run.events as { name: string; time: string }[] | undefined)?.find((e) => e.name === "new_token");
  return {
    id: run.id,
    traceId: root.id,
    ...(run.parent_run_id && run.parent_run_id !== root.id ? { parentObservationId: run.parent_run_id } : {}),
    name: run.name,
    startTime: run.start_time,
    endTime: run.end_time,
    input: llm ? run.inputs.messages : run.inputs,
    output: llm ? run.outputs.choices[0].message : run.outputs,
    metadata: run.extra?.metadata,
    ...(llm
      ? {
          model: run.extra?.metadata?.ls_model_name,
          usageDetails: { input: usage.prompt_tokens, output: usage.completion_tokens, total: usage.total_tokens },
          completionStartTime: firstToken?.time,
        }
      : {}),
  };
}

/** One ingestion request body for the runs (traces whose root comes first, as makeTrace builds them). */
export function langfuseBatchOf(runs: Run[]): string {
  const roots = new Map(runs.filter((r) => !r.parent_run_id).map((r) => [r.id, r]));
  const batch = runs.map((run, i) => {
    const timestamp = run.start_time;
    if (!run.parent_run_id) {
      return {
        id: `e-${i}-${run.id}`,
        type: "trace-create",
        timestamp,
        body: {
          id: run.id,
          timestamp,
          name: run.name,
          input: run.inputs,
          output: run.outputs,
          tags: run.tags,
          metadata: run.extra?.metadata,
        },
      };
    }
    return {
      id: `e-${i}-${run.id}`,
      type: `${observationType(run.run_type)}-create`,
      timestamp,
      body: observation(run, roots.get(run.trace_id)!),
    };
  });
  return JSON.stringify({ batch, metadata: { sdk_name: "bench", sdk_version: "3.39.2" } });
}
