import { collectionRoutes } from "@/server/http/resource";
import { ruleCreate, ruleFilterFromWire, ruleListQuery, wireRule } from "@/server/rules/schema";
import { createRule, listRules } from "@/server/rules/service";

export const { GET, POST, PUT, PATCH, DELETE } = collectionRoutes({
  query: ruleListQuery,
  body: ruleCreate,
  wire: wireRule,
  list: (db, workspaceId, query) => listRules(db, workspaceId, ruleFilterFromWire(query)),
  create: createRule,
});
