import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { uploadCsv } from "@/server/datasets/csv";
import { wireDataset } from "@/server/datasets/schema";

/**
 * A new dataset from a CSV file (form fields: file, input_keys, output_keys, name, description,
 * data_type, inputs_schema_definition, outputs_schema_definition).
 */
export const POST = route({
  access: "write",
  body: "multipart",
  response: wireDataset,
  handler: ({ ctx, body }) => uploadCsv(ctx.sql, ctx.workspaceId, body),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
