import { methodNotAllowed } from "@/server/http/not-found";
import { route } from "@/server/http/route";
import { serviceInfo, wireServiceInfo } from "@/server/info";

export const GET = route({ access: "public", response: wireServiceInfo, handler: () => serviceInfo() });
export const POST = GET;

export const { PUT, PATCH, DELETE } = methodNotAllowed("GET", "POST");
