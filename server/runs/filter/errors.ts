/**
 * A filter the caller wrote that we cannot read. `clientStatus` lets the one error mapper in
 * server/http/errors.ts answer 400 with this message as the detail.
 */
export class FilterSyntaxError extends Error {
  readonly clientStatus = 400;
  constructor(
    readonly position: number,
    readonly reason: string,
  ) {
    super(`Invalid filter at position ${position}: ${reason}`);
    this.name = "FilterSyntaxError";
  }
}
