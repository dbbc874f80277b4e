// The SDK's `api.scoreV2Get` reads the same list as /api/public/scores.
export { GET, POST, PUT, PATCH, DELETE } from "../../scores/route";
