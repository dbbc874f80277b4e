import { apiNotFound } from "@/server/http/not-found";

/** Any /api/public path (Langfuse's API) no route matches. */
export const { GET, POST, PUT, PATCH, DELETE } = apiNotFound();
