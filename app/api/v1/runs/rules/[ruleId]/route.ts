import { itemRoutes } from "@/server/http/resource";
import { ruleUpdate, wireRule } from "@/server/rules/schema";
import { deleteRule, readRule, updateRule } from "@/server/rules/service";

export const { GET, PATCH, DELETE, POST, PUT } = itemRoutes({
  id: "ruleId",
  body: ruleUpdate,
  wire: wireRule,
  read: readRule,
  update: updateRule,
  remove: deleteRule,
});
