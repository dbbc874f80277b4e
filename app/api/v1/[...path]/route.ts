import { apiNotFound } from "@/server/http/not-found";

/** Any /api/v1 (or root API) path no route matches. */
export const { GET, POST, PUT, PATCH, DELETE } = apiNotFound();
