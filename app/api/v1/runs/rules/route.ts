import { collectionRoutes } from "@/server/http/resource";
import { ruleCreate, ruleListQuery, wireRule } from "@/server/rules/schema";
import { createRule, listRules } from "@/server/rules/service";

export const { GET, POST, PUT, PATCH, DELETE } = collectionRoutes({
  query: ruleListQuery,
  body: ruleCreate,
  wire: wireRule,
  list: listRules,
  create: createRule,
});
