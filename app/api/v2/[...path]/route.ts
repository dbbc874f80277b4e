import { apiNotFound } from "@/server/http/not-found";

/** Any /api/v2 (or /v2) path no route matches. */
export const { GET, POST, PUT, PATCH, DELETE } = apiNotFound();
