const decoder = new TextDecoder();

/**
 * An open object a service sent as UTF-8 JSON bytes (a provider's data, a contact, a parcel), as a
 * value of the REST answer; `empty` when the service sent none (empty bytes).
 */
export function openJson<T>(bytes: Uint8Array | undefined, empty: T): any {
  return bytes === undefined || bytes.length === 0 ? empty : JSON.parse(decoder.decode(bytes));
}
