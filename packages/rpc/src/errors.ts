import { Code, ConnectError } from '@connectrpc/connect';
import type { JsonObject } from '@bufbuild/protobuf';
import { commonv1 } from '@landscreen/proto';
import type { ValidationIssue } from '@landscreen/validation';

export type { ValidationIssue };
/** The D1 issue builders (pydantic's wording), so a service's 422 reads as the gateway's would. */
export { issue } from '@landscreen/validation';

/**
 * A typed service failure. `code` is the Connect code (which the gateway maps to an HTTP status in
 * one place), `reason` the public snake_case code of D2, `fields` the structured extras a decision
 * names (e.g. `failed` for must_failed).
 */
export function serviceError(code: Code, reason: string, message: string, fields: JsonObject = {}): ConnectError {
  return new ConnectError(message, code, undefined, [
    { desc: commonv1.ErrorDetailSchema, value: { code: reason, fields } },
  ]);
}

/** A validation failure found by a service (D1): answered as 422 with the issues as `detail`. */
export function validationError(issues: ValidationIssue[]): ConnectError {
  return serviceError(Code.InvalidArgument, 'validation', 'validation failed', {
    detail: issues as unknown as JsonObject[],
  } as JsonObject);
}

export const notFound = (reason: string, message: string, fields?: JsonObject) =>
  serviceError(Code.NotFound, reason, message, fields);
export const conflict = (reason: string, message: string, fields?: JsonObject) =>
  serviceError(Code.FailedPrecondition, reason, message, fields);
export const forbidden = (reason: string, message: string, fields?: JsonObject) =>
  serviceError(Code.PermissionDenied, reason, message, fields);
export const unauthenticated = (reason: string, message: string, fields?: JsonObject) =>
  serviceError(Code.Unauthenticated, reason, message, fields);

/** What the gateway reads back from a ConnectError. */
export interface ErrorInfo {
  code: Code;
  reason: string | undefined;
  message: string;
  fields: JsonObject;
}

export function readServiceError(error: unknown): ErrorInfo {
  const connectError = ConnectError.from(error);
  const [detail] = connectError.findDetails(commonv1.ErrorDetailSchema);
  return {
    code: connectError.code,
    reason: detail?.code || undefined,
    message: connectError.rawMessage,
    fields: detail?.fields ?? {},
  };
}
