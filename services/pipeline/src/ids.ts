const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths are plain strings (spec): one that is not a uuid names nothing, so it is a 404. */
export const isUuid = (value: string) => UUID.test(value);
