import { z } from "zod";

const headerName = z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, "must be a valid HTTP header name");
const headerValue = z
  .string()
  .max(4096)
  .regex(/^[^\r\n]*$/, "must not contain line breaks");

/** Extra HTTP headers a caller asks us to send (webhooks, model connections): valid names, one-line values. */
export const extraHeaders = z.record(headerName, headerValue);
