import { route } from "@/server/http/route";
import { serviceInfo } from "@/server/info";

export const GET = route({ access: "public", handler: () => serviceInfo() });
export const POST = GET;
