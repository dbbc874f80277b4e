import { apiDocument } from "@/server/openapi";

/** Built once, at build time, from the route modules themselves (server/openapi). */
export const dynamic = "force-static";

// The template makes the bundler include every app/api route module, so a route added later is
// described with no list to update.
const load = (folder: string) => import(`../api/${folder}/route`);

export async function GET() {
  return Response.json(await apiDocument(load), { headers: { "Access-Control-Allow-Origin": "*" } });
}
