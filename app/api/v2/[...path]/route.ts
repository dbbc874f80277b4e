import { apiNotFound } from "@/server/http/not-found";

/** Any /api/v2 (or /v2) path: the v2 resources are not served yet. */
export const { GET, POST, PUT, PATCH, DELETE } = apiNotFound();
