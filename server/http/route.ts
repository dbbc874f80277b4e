import path from "node:path";
import { z } from "zod";
import { assertMay, type Action } from "../auth/policy";
import { database, type Sql } from "../db/client";
import { env } from "../env";
import { reportAvailable } from "../db/outage";
import { decodedBodyChunks, readDecodedBody, parseJson } from "./body";
import { clientIp } from "../core/client-ip";
import { CORS_HEADERS } from "./cors";
import { AppError, badRequest, describeZodError, notFound, unauthorized, unsupportedMediaType } from "../core/errors";
import { errorResponse } from "./errors";
import { requestIdentity, type Identity } from "../auth/identity";
import { actorOf, withAuditActor } from "../audit/actor";
import { boundaryOf, disposeParts, readMultipart, type Part } from "./multipart";
import { withRequestOrigin } from "./public-url";
import { withRateLimit } from "./rate-limit";

/** public: no identity needed; otherwise the policy's action the route needs (server/auth/policy.ts). */
export type Access = "public" | Action;

export interface Context {
  sql: Sql;
  ip: string;
  identity: Identity | null;
}

export interface AuthedContext extends Context {
  identity: Identity;
  workspaceId: string;
}

type BodySpec = z.ZodType | "bytes" | "multipart" | undefined;
type BodyOf<B> =
  B extends z.ZodType<infer T>
    ? T
    : B extends "bytes"
      ? { bytes: Buffer; contentType: string }
      : B extends "multipart"
        ? Part[]
        : undefined;

interface RouteSpec<A extends Access, B extends BodySpec, Q extends z.ZodType | undefined, P, R> {
  access: A;
  /** Also accept Langfuse's credentials, `Authorization: Basic` public key : API key (auth/identity.ts). */
  basicAuth?: boolean;
  /** Ingest: runs on ingest's own connections, so slow reads never hold it up. */
  ingest?: boolean;
  /**
   * The handler only reads, and a few seconds' staleness is fine (a list, a query, statistics, a
   * chart): it may be answered from a streaming replica (see Database.reads). The caller's identity
   * is still read on the primary, so a key made a moment ago works.
   */
  replica?: boolean;
  body?: B;
  query?: Q;
  /** The path's parameters, checked here (a malformed id is a 404, like a missing one). */
  params?: z.ZodType<P>;
  /**
   * What the SDKs receive: the handler must return it (checked by the compiler) and the answer is
   * checked against it before it leaves, so a drifted field is a 500 naming it, in tests, not a
   * client that breaks later.
   */
  response?: z.ZodType<R>;
  /**
   * The status of a JSON answer (201 for a thing made, 202 for one accepted for later, 207 for a
   * batch answered item by item); 200 unless given.
   */
  status?: 200 | 201 | 202 | 207;
  /**
   * What the route answers when it returns its own Response instead of a `response` schema (a
   * stream, a file, a reply whose status depends on the outcome): the OpenAPI document says this.
   */
  answers?: Answer;
  handler: (args: {
    ctx: A extends "public" ? Context : AuthedContext;
    body: BodyOf<B>;
    query: Q extends z.ZodType<infer T> ? T : undefined;
    params: P;
    request: Request;
  }) => unknown extends R ? unknown : R | Response | Promise<R | Response>;
}

/** A hand-built answer, described: its content type and what it holds. */
export interface Answer {
  contentType: string;
  description: string;
}

/** What the OpenAPI document reads from a route the factory made (server/openapi). */
export interface RouteDescription {
  access: Access;
  basicAuth: boolean;
  body?: BodySpec;
  query?: z.ZodType;
  params?: z.ZodType;
  response?: z.ZodType;
  status: number;
  answers?: Answer;
}

/** The answer of a DELETE whose handler returns nothing. */
export const DELETED: Answer = { contentType: "application/json", description: "Deleted: an empty JSON object (`{}`)." };

// A registered symbol, so a copy of this module loaded twice still recognises the handlers.
const DESCRIPTION = Symbol.for("tracelight.route-description");

/** The declaration behind a route handler, or undefined for a handler the factory did not make. */
export function describeRoute(handler: unknown): RouteDescription | undefined {
  return typeof handler === "function" ? (handler as { [DESCRIPTION]?: RouteDescription })[DESCRIPTION] : undefined;
}

/** A JSON answer with a status other than 200. */
export function reply(status: number, body: unknown, headers?: Record<string, string>): Response {
  return status === 204 ? new Response(null, { status, headers }) : Response.json(body, { status, headers });
}

/** Query parameters as an object; repeated keys become arrays. */
export function searchObject(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of url.searchParams) {
    const prior = out[key];
    out[key] = prior === undefined ? value : Array.isArray(prior) ? [...prior, value] : [prior, value];
  }
  return out;
}

const BASIC_MISSING =
  "Missing credentials: send Authorization: Basic base64(public_key:secret_key) with a Tracelight API key as the secret key (the public key names the project), or the key in x-api-key.";

function authorize(access: Access, identity: Identity | null, basicAuth = false): void {
  if (access === "public") return;
  if (!identity) throw basicAuth ? unauthorized(BASIC_MISSING) : unauthorized();
  assertMay(identity.role, access);
}

/** application/json, any +json type, or no Content-Type at all (never a form's or text/plain). */
const isJsonType = (contentType: string) => contentType === "" || /^application\/([\w.-]+\+)?json\s*(;|$)/i.test(contentType);

const READ_WHOLE_BYTES = 1024 * 1024;

async function parseBody(spec: BodySpec, request: Request): Promise<unknown> {
  if (!spec) return undefined;
  const contentType = request.headers.get("content-type") ?? "";
  if (spec === "multipart") {
    const boundary = boundaryOf(contentType);
    // A small uncompressed body (a batch of runs) is read whole, which is quicker; any other streams,
    // chunked ones (no declared length) too.
    const declared = request.headers.get("content-length");
    const small = declared !== null && Number(declared) <= READ_WHOLE_BYTES && !request.headers.has("content-encoding");
    return readMultipart(
      small ? [await readDecodedBody(request)] : decodedBodyChunks(request),
      boundary,
      path.join(env().DATA_DIR, "uploads"),
    );
  }
  if (spec !== "bytes" && !isJsonType(contentType)) {
    // A cross-site form can post text/plain or urlencoded without a preflight; JSON cannot be forged so.
    throw unsupportedMediaType(`Content-Type "${contentType}" is not JSON; send the body as application/json.`);
  }
  const bytes = await readDecodedBody(request);
  if (spec === "bytes") return { bytes, contentType };
  const parsed = spec.safeParse(parseJson(bytes));
  if (!parsed.success) throw badRequest(describeZodError(parsed.error, "body"));
  return parsed.data;
}

async function pathParams<P>(schema: z.ZodType<P> | undefined, given: Promise<P>): Promise<P> {
  const raw = (await given) ?? ({} as P);
  if (!schema) return raw;
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw notFound(`Not found: ${describeZodError(parsed.error, "path")}.`);
  return parsed.data;
}

/** A 500 when a handler's answer does not match the schema it documents (REST routes and tRPC outputs). */
export function checkResponse(schema: z.ZodType, result: unknown): void {
  const checked = schema.safeParse(result);
  if (!checked.success)
    throw new AppError(500, `The answer does not match its documented shape: ${describeZodError(checked.error, "response")}.`);
}

/**
 * The one REST route factory: rate limit (by the caller's headers, before
 * any lookup) → identity → body (limits, decoding, zod) → query and path (zod)
 * → handler → one error mapper answering `{"detail": ...}`.
 */
export function route<
  A extends Access,
  B extends BodySpec = undefined,
  Q extends z.ZodType | undefined = undefined,
  P = Record<string, string>,
  R = unknown,
>(spec: RouteSpec<A, B, Q, P, R>): ((request: Request, context: { params: Promise<P> }) => Promise<Response>) & { access: A } {
  // `access` stays on the handler so the access tests can classify every route file's methods.
  const answer = async (request: Request, context: { params: Promise<P> }) => {
    const response = await handle(request, context);
    for (const [name, value] of Object.entries(CORS_HEADERS)) if (!response.headers.has(name)) response.headers.set(name, value);
    return response;
  };
  const description: RouteDescription = {
    access: spec.access,
    basicAuth: spec.basicAuth ?? false,
    body: spec.body,
    query: spec.query,
    params: spec.params,
    response: spec.response,
    status: spec.status ?? 200,
    answers: spec.answers,
  };
  return Object.assign(answer, { [DESCRIPTION]: description, access: spec.access });

  async function handle(request: Request, context: { params: Promise<P> }): Promise<Response> {
    const ip = clientIp(request.headers);
    const startedAt = Date.now();
    try {
      return await withRateLimit(request, ip, () =>
        withRequestOrigin(request, async () => {
          const db = await database();
          const sql = spec.ingest ? db.ingestSql : db.sql;
          const identity = await requestIdentity(request, sql, { basic: spec.basicAuth }).catch((error) => {
            if (spec.access === "public" && error instanceof AppError && (error.status === 401 || error.status === 403)) return null;
            throw error;
          });
          authorize(spec.access, identity, spec.basicAuth);
          const body = await parseBody(spec.body, request);
          try {
            let query: unknown;
            if (spec.query) {
              const parsed = spec.query.safeParse(searchObject(new URL(request.url)));
              if (!parsed.success) throw badRequest(describeZodError(parsed.error, "query parameters"));
              query = parsed.data;
            }
            const reads = spec.replica ? db.reads() : sql;
            const ctx = identity ? { sql: reads, ip, identity, workspaceId: identity.workspaceId } : { sql: reads, ip, identity };
            const params = await pathParams(spec.params, context.params);
            const run = () => spec.handler({ ctx: ctx as never, body: body as never, query: query as never, params, request });
            // The audit trail's actor; ingest records nothing, so its requests skip the context.
            const result = await (spec.ingest ? run() : withAuditActor(actorOf(identity, ip), run));
            reportAvailable(startedAt);
            if (result instanceof Response) return result;
            if (spec.response) checkResponse(spec.response, result);
            // Nothing to return (a DELETE, say) is still a JSON body: the SDKs call response.json() on it.
            return Response.json(result === undefined ? {} : result, { status: spec.status ?? 200 });
          } finally {
            if (spec.body === "multipart") await disposeParts(body as Part[]);
          }
        }),
      );
    } catch (error) {
      return errorResponse(error);
    }
  }
}
