// A proto3 `optional` field is absent (undefined) where the REST JSON and the database say null.
// These two cross that line, in the services building messages and in the mappings writing JSON.

/** A database or JSON null as an absent optional field. */
export const absentIfNull = <T>(value: T | null): T | undefined => (value === null ? undefined : value);

/** An absent optional field as the REST JSON's null. */
export const nullIfAbsent = <T>(value: T | undefined): T | null => (value === undefined ? null : value);
