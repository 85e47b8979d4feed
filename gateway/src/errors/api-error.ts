/**
 * An error answered as the D2 body `{"detail": <sentence>, "code": <snake_case>, ...fields}`.
 * Raised by the gateway itself (authentication, 501) and produced from service errors.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly fields: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'ApiError';
  }

  body(): Record<string, unknown> {
    return { detail: this.detail, code: this.code, ...this.fields };
  }
}

export const notImplemented = (what: string) =>
  new ApiError(501, 'not_implemented', `${what} is not implemented yet in this build.`);
