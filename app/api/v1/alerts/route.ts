import { alertCreate, alertListQuery, wireAlert } from "@/server/alerts/schema";
import { createAlert, listAlerts } from "@/server/alerts/service";
import { collectionRoutes } from "@/server/http/resource";

export const { GET, POST, PUT, PATCH, DELETE } = collectionRoutes({
  query: alertListQuery,
  body: alertCreate,
  wire: wireAlert,
  createdStatus: 201,
  list: listAlerts,
  create: createAlert,
});
