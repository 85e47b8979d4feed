import type { NatsError } from 'nats';

/** JetStream API error codes (server `JSErrCodes`) this package reacts to. */
const CONSUMER_NOT_FOUND = 10014;
const STREAM_NOT_FOUND = 10059;

function apiErrorCode(error: unknown): number | undefined {
  return (error as Partial<NatsError> | undefined)?.api_error?.err_code;
}

export function isStreamNotFound(error: unknown): boolean {
  return apiErrorCode(error) === STREAM_NOT_FOUND;
}

export function isConsumerNotFound(error: unknown): boolean {
  return apiErrorCode(error) === CONSUMER_NOT_FOUND;
}
