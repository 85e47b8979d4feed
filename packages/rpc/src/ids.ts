const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Ids in paths and headers are plain strings in the contract: one that is not a UUID names
 * nothing (a 404 or 401 of the caller's choosing, never a database error on a uuid column).
 */
export const isUuid = (value: string): boolean => UUID.test(value);
