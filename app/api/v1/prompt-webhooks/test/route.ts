import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { promptWebhookTest, testPromptWebhook, webhookTestOutcome } from "@/server/prompts/webhooks";

/** Sends a sample event to a webhook configuration, without saving it. */
export const POST = route({
  access: "write",
  body: promptWebhookTest,
  response: webhookTestOutcome,
  handler: ({ body }) => testPromptWebhook(body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
