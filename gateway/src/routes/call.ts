import { callerHeaders, type Caller } from '@landscreen/rpc';

/** Call options that carry the caller (and the request id) to a service. */
export const asCaller = (caller: Caller | undefined, requestId?: string) => ({
  headers: { ...callerHeaders(caller), ...(requestId && { 'x-request-id': requestId }) },
});

const encoder = new TextEncoder();
/** A validated JSON value on its way to a service as bytes. */
export const toJsonBytes = (value: unknown) => encoder.encode(JSON.stringify(value));
