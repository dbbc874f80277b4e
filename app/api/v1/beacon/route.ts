import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { beaconReport } from "@/server/beacon/schema";
import { readReport, submitBeacon, wireStoredReport } from "@/server/beacon/service";

export const POST = route({
  access: "public",
  status: 202,
  response: wireStoredReport,
  handler: async ({ ctx, request }) => submitBeacon(ctx.sql, ctx.ip, await readReport(request, beaconReport)),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
