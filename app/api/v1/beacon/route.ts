import { methodNotAllowed } from "@/server/http/not-found";
import { reply, route } from "@/server/http/route";
import { beaconReport } from "@/server/beacon/schema";
import { readReport, submitBeacon } from "@/server/beacon/service";

export const POST = route({
  access: "public",
  handler: async ({ ctx, request }) => reply(202, await submitBeacon(ctx.sql, ctx.ip, await readReport(request, beaconReport))),
});

export const { GET, PUT, PATCH, DELETE } = methodNotAllowed("POST");
