/**
 * Provider names as the langsmith SDK's integrations write `ls_provider`, so price-map entries
 * with a provider match OTel runs as they match native ones. Unknown names pass through.
 */
const LS_PROVIDERS: Record<string, string> = {
  openai: "openai",
  "azure.ai.openai": "azure",
  "az.ai.openai": "azure",
  azure: "azure",
  "azure-openai": "azure",
  anthropic: "anthropic",
  "aws.bedrock": "amazon_bedrock",
  "amazon-bedrock": "amazon_bedrock",
  bedrock: "amazon_bedrock",
  "gcp.gemini": "google_genai",
  "gcp.gen_ai": "google_genai",
  gemini: "google_genai",
  google: "google_genai",
  "google.generative-ai": "google_genai",
  "gcp.vertex_ai": "google_vertexai",
  vertex_ai: "google_vertexai",
  "google.vertex": "google_vertexai",
  mistral_ai: "mistral",
  mistralai: "mistral",
  mistral: "mistral",
  x_ai: "xai",
  xai: "xai",
  cohere: "cohere",
  groq: "groq",
  deepseek: "deepseek",
  perplexity: "perplexity",
  "ibm.watsonx.ai": "ibm",
  ollama: "ollama",
  fireworks: "fireworks",
  together: "together",
};

/** The AI SDK names a provider and its API (`openai.chat`, `anthropic.messages`): the part before the dot decides. */
export function lsProvider(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const lower = name.trim().toLowerCase();
  return LS_PROVIDERS[lower] ?? LS_PROVIDERS[lower.split(".")[0]] ?? lower;
}
