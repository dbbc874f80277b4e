import { alertUpdate, wireAlert } from "@/server/alerts/schema";
import { deleteAlert, readAlert, updateAlert } from "@/server/alerts/service";
import { itemRoutes } from "@/server/http/resource";

export const { GET, PATCH, DELETE, POST, PUT } = itemRoutes({
  id: "alertId",
  body: alertUpdate,
  wire: wireAlert,
  read: readAlert,
  update: updateAlert,
  remove: deleteAlert,
});
