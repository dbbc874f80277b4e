// Prints the API's OpenAPI document without starting the server: `node --import tsx scripts/openapi.mjs > openapi.json`.
// The running server answers the same document at GET /openapi.json.
const { documentFromDisk } = await import("../server/openapi/from-disk.ts");
process.stdout.write(JSON.stringify(await documentFromDisk(), null, 2) + "\n");
process.exit(0);
