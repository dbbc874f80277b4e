import { existsSync } from "node:fs";
import path from "node:path";
import protobuf from "protobufjs";
import { normalizeRequest, type RawRequest } from "./normalize";
import { OtlpDecodeError, type ExportRequest, type PartialSuccess } from "./otlp";

/**
 * The vendored opentelemetry-proto files (see proto/README.md). They are read from the project
 * directory, not bundled: the server always runs from the project root (`scripts/serve.mjs`, tests).
 */
const PROTO_DIR = path.join(process.cwd(), "server", "otel", "proto");
const SERVICE_FILE = "opentelemetry/proto/collector/trace/v1/trace_service.proto";

interface Types {
  request: protobuf.Type;
  response: protobuf.Type;
  status: protobuf.Type;
}

let types: Types | undefined;

/** google.rpc.Status without `details`: the body of an OTLP error answer. */
function statusType(): protobuf.Type {
  return new protobuf.Type("Status").add(new protobuf.Field("code", 1, "int32")).add(new protobuf.Field("message", 2, "string"));
}

/** Parsed once, on the first OTLP request. */
function loadTypes(): Types {
  if (types) return types;
  if (!existsSync(path.join(PROTO_DIR, SERVICE_FILE))) {
    throw new Error(`OTLP proto files not found under ${PROTO_DIR}; start the server from the project root.`);
  }
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => path.join(PROTO_DIR, target);
  root.loadSync(SERVICE_FILE, { keepCase: false });
  const status = statusType();
  new protobuf.Root().define("google.rpc").add(status);
  types = {
    request: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest"),
    response: root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse"),
    status,
  };
  return types;
}

export function decodeProtobufRequest(bytes: Buffer): ExportRequest {
  const { request } = loadTypes();
  let raw: RawRequest;
  try {
    const message = request.decode(bytes);
    raw = request.toObject(message, { longs: String, enums: Number, defaults: false }) as RawRequest;
  } catch (error) {
    throw new OtlpDecodeError(`Body is not a protobuf ExportTraceServiceRequest: ${(error as Error).message}`);
  }
  return normalizeRequest(raw);
}

/** An empty response (zero bytes) unless spans were rejected or there is a warning. */
export function encodeProtobufResponse(partial: PartialSuccess | null): Uint8Array {
  const { response } = loadTypes();
  const body = partial ? { partialSuccess: { rejectedSpans: partial.rejectedSpans, errorMessage: partial.errorMessage } } : {};
  return response.encode(response.fromObject(body)).finish();
}

export function encodeProtobufStatus(code: number, message: string): Uint8Array {
  const { status } = loadTypes();
  return status.encode(status.fromObject({ code, message })).finish();
}
