import { equals, fromBinary, toBinary, toJson, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';

/**
 * The message as a network peer would receive it: encoded to protobuf bytes and decoded again,
 * compared with the original. A message that cannot be encoded (a field of the wrong type, a
 * literal missing a list), or that does not come back the same (an int32 out of range, a string
 * that is not valid UTF-16), is a ConnectError (Internal) naming the method and the side, as
 * it would break the distributed mode; the in-process transport never encodes otherwise.
 */
export function roundTripChecked<S extends DescMessage>(schema: S, message: MessageShape<S>, where: string): MessageShape<S> {
  let copy: MessageShape<S>;
  try {
    copy = fromBinary(schema, toBinary(schema, message));
  } catch (error) {
    throw new ConnectError(`in-process message check: the ${where} (${schema.typeName}) cannot be encoded: ${(error as Error).message}`, Code.Internal);
  }
  if (!sameMessage(schema, message, copy)) {
    throw new ConnectError(
      `in-process message check: the ${where} (${schema.typeName}) does not decode to what was sent: sent ${safeJson(schema, message)}, received ${safeJson(schema, copy)}`,
      Code.Internal,
    );
  }
  return copy;
}

/** Equal as protobuf compares them, or, where that differs only for NaN (never equal to itself), as their JSON. */
function sameMessage<S extends DescMessage>(schema: S, a: MessageShape<S>, b: MessageShape<S>): boolean {
  try {
    if (equals(schema, a, b)) return true;
    return JSON.stringify(toJson(schema, a)) === JSON.stringify(toJson(schema, b));
  } catch {
    return false;
  }
}

function safeJson<S extends DescMessage>(schema: S, message: MessageShape<S>): string {
  try {
    return JSON.stringify(toJson(schema, message)).slice(0, 2000);
  } catch (error) {
    return `(not writable as JSON: ${(error as Error).message})`;
  }
}
