import { decodeJsonRequest } from "./decode-json";
import { validHexId } from "./ids";
import { OtlpContentTypeError, OtlpDecodeError, type ExportRequest, type PartialSuccess } from "./otlp";
import { decodeProtobufRequest, encodeProtobufResponse, encodeProtobufStatus } from "./protobuf";

export type OtlpEncoding = "protobuf" | "json";

/** OTLP/HTTP dispatches on Content-Type; a substring match tolerates parameters such as charset. */
export function encodingOf(contentType: string): OtlpEncoding {
  const type = contentType.toLowerCase();
  if (type.includes("application/x-protobuf") || type.includes("application/protobuf")) return "protobuf";
  if (type.includes("application/json")) return "json";
  throw new OtlpContentTypeError(
    `Unsupported Content-Type "${contentType}"; OTLP/HTTP accepts application/x-protobuf or application/json.`,
  );
}

/**
 * Logs and metrics share field numbers with traces, so a logs or metrics protobuf body sent here
 * decodes "successfully" into spans none of which has a valid trace and span id.
 */
function assertTraces(request: ExportRequest): void {
  const { spans } = request;
  if (spans.length === 0) return;
  if (spans.some((s) => validHexId(s.traceId, 16) && validHexId(s.spanId, 8))) return;
  throw new OtlpDecodeError(
    `None of the ${spans.length} decoded spans has a valid 16-byte trace id and 8-byte span id; ` +
      "this does not look like a traces payload (logs or metrics sent to the traces endpoint?).",
  );
}

/** Decodes an ExportTraceServiceRequest in either OTLP encoding; throws OtlpDecodeError (400) or OtlpContentTypeError (415). */
export function decodeExportRequest(bytes: Buffer, contentType: string): ExportRequest {
  const encoding = encodingOf(contentType);
  const request = encoding === "protobuf" ? decodeProtobufRequest(bytes) : decodeJsonRequest(bytes);
  assertTraces(request);
  return request;
}

/** The ExportTraceServiceResponse body in the request's encoding; `null` means full success. */
export function encodeExportResponse(
  partialSuccess: PartialSuccess | null,
  contentType: string,
): { body: Uint8Array; contentType: string } {
  if (encodingOf(contentType) === "protobuf") {
    return { body: encodeProtobufResponse(partialSuccess), contentType: "application/x-protobuf" };
  }
  const json = partialSuccess
    ? { partialSuccess: { rejectedSpans: String(partialSuccess.rejectedSpans), errorMessage: partialSuccess.errorMessage } }
    : {};
  return { body: Buffer.from(JSON.stringify(json)), contentType: "application/json" };
}

/**
 * An OTLP failure body (google.rpc.Status) in the request's encoding. The JSON form also carries
 * `detail`, the field every other error of this API uses.
 */
export function encodeErrorStatus(code: number, message: string, encoding: OtlpEncoding): { body: Uint8Array; contentType: string } {
  if (encoding === "protobuf") return { body: encodeProtobufStatus(code, message), contentType: "application/x-protobuf" };
  return { body: Buffer.from(JSON.stringify({ code, message, detail: message })), contentType: "application/json" };
}
