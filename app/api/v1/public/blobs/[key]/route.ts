import { z } from "zod";
import { blobHeaders } from "@/server/blobs/headers";
import { getBlob, verifyBlobSignature } from "@/server/blobs/store";
import { notFound } from "@/server/core/errors";
import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";

/** Serves an attachment through the signed link found in a run's `s3_urls`. */
export const GET = route({
  answers: {
    contentType: "application/octet-stream",
    description: "The attachment's bytes, with its stored content type, as a download under a sandbox CSP.",
  },
  access: "public",
  query: z.object({ expires: z.string(), type: z.string(), sig: z.string() }),
  handler: async ({ params, query }) => {
    if (!verifyBlobSignature(params.key, query.expires, query.type, query.sig))
      throw notFound("This attachment link is invalid or has expired.");
    const bytes = await getBlob(params.key);
    if (!bytes) throw notFound("Attachment not found.");
    return new Response(new Uint8Array(bytes), { headers: blobHeaders(query.type) });
  },
});

export const { POST, PUT, PATCH, DELETE } = methodNotAllowed("GET");
