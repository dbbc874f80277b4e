/** The domain an API path belongs to, as the reference groups it (OpenAPI tags). */
const TAGS: Record<string, string> = {
  runs: "Runs",
  traces: "Runs",
  batch: "Runs",
  threads: "Threads",
  otel: "OpenTelemetry",
  rules: "Rules",
  sessions: "Projects",
  feedback: "Feedback",
  "feedback-configs": "Feedback",
  datasets: "Datasets",
  examples: "Datasets",
  repos: "Prompts",
  commits: "Prompts",
  likes: "Prompts",
  hub: "Prompts",
  "prompt-webhooks": "Prompts",
  "annotation-queues": "Annotation queues",
  evaluators: "Evaluators",
  charts: "Charts",
  playground: "Playground",
  generate: "Playground",
  "model-connections": "Models",
  "model-prices": "Models",
  public: "Sharing",
  auth: "Workspaces and keys",
  "api-key": "Workspaces and keys",
  workspaces: "Workspaces and keys",
  members: "Workspaces and keys",
  settings: "Workspaces and keys",
  sql: "SQL",
};

/** What each tag covers, for the reference's side bar. */
export const TAG_DESCRIPTIONS: Record<string, string> = {
  Runs: "Send runs (the SDKs' batch and multipart ingest), read them, query them with the filter language.",
  Threads: "Conversations: the traces that share a thread id, their statistics and share links.",
  OpenTelemetry: "OTLP/HTTP trace export; spans become runs.",
  Rules: "Automation rules over new runs, their backfills and logs.",
  Projects: "Projects (`sessions` on the wire) and their statistics.",
  Feedback: "Scores and comments on runs, feedback configs and pre-signed feedback tokens.",
  Datasets: "Datasets, examples, versions, splits and the experiments run on them.",
  Prompts: "The prompt hub: repos, commits, tags, likes and webhooks.",
  "Annotation queues": "Queues of runs for people to review.",
  Evaluators: "LLM-as-judge and code evaluators.",
  Charts: "Custom charts and chart sets over runs.",
  Playground: "Calling models from the UI, prompt generation.",
  Models: "Model provider connections and the price table.",
  Sharing: "Public share links to runs, threads and datasets.",
  "Workspaces and keys": "Sign-up, workspaces, members, invites, API keys, settings.",
  SQL: "Read-only SQL over the workspace's runs.",
  Langfuse: "Langfuse's public API (`/api/public`), for Langfuse SDKs and OTel exporters.",
  Service: "Service information, usage and health.",
};

/** `/api/v1/platform/datasets/{id}/examples` → "Datasets"; Langfuse's tree is one tag. */
export function tagOf(path: string): string {
  const segments = path.split("/").filter(Boolean);
  if (segments[1] === "public" && segments[0] === "api") return "Langfuse";
  const rest = segments.slice(2);
  if (rest[0] === "platform") rest.shift();
  if (rest[0] === "runs" && rest[1] === "rules") return "Rules";
  return TAGS[rest[0] ?? ""] ?? "Service";
}
