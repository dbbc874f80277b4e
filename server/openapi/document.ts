import { z } from "zod";
import type { RouteDescription } from "../http/route";
import { SchemaConverter, type JsonSchema } from "./json-schema";
import type { Operation } from "./routes";
import { TAG_DESCRIPTIONS, tagOf } from "./tags";

const ERROR = { $ref: "#/components/schemas/Error" };
const errorReply = (description: string) => ({ description, content: { "application/json": { schema: ERROR } } });

const ROLE_NOTE: Record<RouteDescription["access"], string> = {
  public: "No credentials needed.",
  read: "Any member of the workspace (admin, member, viewer or annotator).",
  feedback: "Admins, members and annotators (an annotator changes only its own feedback); a viewer's key is refused with 403.",
  review: "Admins and members, and annotators on the queues they are assigned to.",
  write: "Admins and members; a viewer's or annotator's key is refused with 403.",
  admin: "Workspace admins only.",
};

const SECURITY_SCHEMES = {
  apiKey: {
    type: "apiKey",
    in: "header",
    name: "X-API-Key",
    description: "A workspace API key (Settings → API keys). `X-Tenant-Id` may name the key's workspace; another is refused with 403.",
  },
  session: {
    type: "apiKey",
    in: "cookie",
    name: "next-auth.session-token",
    description:
      "The UI's session (`__Secure-next-auth.session-token` on https), sent together with an `X-User-Id` header repeating the signed-in user's id.",
  },
  basic: {
    type: "http",
    scheme: "basic",
    description:
      "Langfuse's credentials: `public_key:secret_key`, with a Tracelight API key as the secret key (the public key names the project).",
  },
};

/** A path parameter's schema from the route's `params`, else a plain string. */
function pathParameters(path: string, route: RouteDescription, converter: SchemaConverter) {
  const declared = route.params ? converter.convert(route.params) : {};
  const properties = (declared.properties ?? {}) as Record<string, JsonSchema>;
  return [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: properties[name] ?? { type: "string" },
  }));
}

/** One query parameter per property of the route's `query` object (repeated keys are arrays). */
function queryParameters(route: RouteDescription, converter: SchemaConverter) {
  if (!route.query) return [];
  const schema = converter.convert(route.query);
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    ...(typeof property.description === "string" ? { description: property.description } : {}),
    schema: property,
  }));
}

function requestBody(route: RouteDescription, converter: SchemaConverter) {
  const body = route.body;
  if (!body) return undefined;
  if (body === "bytes") {
    return {
      required: true,
      description: "The raw body (OTLP protobuf or JSON, as its Content-Type says; gzip, deflate or zstd Content-Encoding accepted).",
      content: {
        "application/x-protobuf": { schema: { type: "string", format: "binary" } },
        "application/json": { schema: {} },
      },
    };
  }
  if (body === "multipart") {
    return {
      required: true,
      description: "multipart/form-data: one part per run, patch, attachment or field, named as the LangSmith SDKs name them.",
      content: { "multipart/form-data": { schema: { type: "object", additionalProperties: true } } },
    };
  }
  return { required: true, content: { "application/json": { schema: converter.convert(body as z.ZodType) } } };
}

function successReply(route: RouteDescription, converter: SchemaConverter) {
  if (route.response)
    return {
      [String(route.status)]: { description: "Success.", content: { "application/json": { schema: converter.convert(route.response) } } },
    };
  const answer = route.answers ?? { contentType: "application/json", description: "An answer the route builds itself." };
  return { [String(route.status)]: { description: answer.description, content: { [answer.contentType]: { schema: {} } } } };
}

function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, "")
    .split(/[/{}_.-]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0].toUpperCase() + w.slice(1)).join("");
}

function security(route: RouteDescription) {
  if (route.access === "public") return [];
  return [{ apiKey: [] }, ...(route.basicAuth ? [{ basic: [] }] : []), { session: [] }];
}

/** The OpenAPI 3.1 document of the given operations, from the schemas their routes declare. */
export function openApiDocument(operations: Operation[], version: string): JsonSchema {
  const converter = new SchemaConverter();
  const paths: Record<string, Record<string, unknown>> = {};
  const used = new Set<string>();
  for (const { path, method, route } of operations) {
    const tag = tagOf(path);
    used.add(tag);
    const parameters = [...pathParameters(path, route, converter), ...queryParameters(route, converter)];
    const body = requestBody(route, converter);
    (paths[path] ??= {})[method.toLowerCase()] = {
      operationId: operationId(method, path),
      tags: [tag],
      description: ROLE_NOTE[route.access],
      security: security(route),
      ...(parameters.length ? { parameters } : {}),
      ...(body ? { requestBody: body } : {}),
      responses: {
        ...successReply(route, converter),
        ...(parameters.length || body ? { "400": errorReply("The request does not fit: `detail` names the field and why.") } : {}),
        ...(route.access === "public"
          ? {}
          : {
              "401": errorReply("No credentials, or a key that does not exist or was revoked."),
              "403": errorReply("The key's role may not do this, or it belongs to another workspace or region."),
            }),
        ...(path.includes("{") ? { "404": errorReply("Not found in this workspace (a malformed id is a 404 too).") } : {}),
        "429": errorReply("Rate limited: retry after the `Retry-After` header's seconds."),
        default: errorReply("Any other failure (413 too large, 503 database unavailable with Retry-After, 500)."),
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Tracelight API",
      version,
      description:
        'The LangSmith-compatible REST API of a Tracelight deployment, generated from the zod schemas its routes validate with. Every `/api/v1/...` path is also served at the root (`/runs/...`, `/info`, `/v1/...`), `/api/v2/...` also at `/v2/...`. Errors answer `{"detail": "..."}` with the status.',
    },
    servers: [{ url: "/" }],
    tags: [...used].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    components: {
      schemas: {
        Error: {
          type: "object",
          properties: { detail: { type: "string", description: "What went wrong, in words a person can act on." } },
          required: ["detail"],
        },
        ...converter.components,
      },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
