/**
 * A coded column's rows as slots: 0 is "no value", slot s is dictionary code s − 1. As narrow as
 * the dictionary allows, so kernels index their tables by slot with no adjustment.
 */
export type Slots = Uint8Array | Uint16Array | Uint32Array;

/** Slots for `size` rows of a dictionary of `entries` values, in the narrowest array that holds them. */
export function slotArray(size: number, entries: number): Slots {
  return entries <= 0xff ? new Uint8Array(size) : entries <= 0xffff ? new Uint16Array(size) : new Uint32Array(size);
}

/**
 * Slots narrowed to `entries` values from a Uint32Array of them. Loops over slots work in a
 * Uint32Array and narrow once with a native copy: a loop that writes or reads slots of more than
 * one width is polymorphic, and cost over a hundred nanoseconds a row.
 */
export function narrowSlots(wide: Uint32Array, entries: number): Slots {
  if (entries > 0xffff) return wide;
  const slots = slotArray(wide.length, entries);
  slots.set(wide);
  return slots;
}

/** Slots of any width as a Uint32Array of their own (a native copy: see narrowSlots). */
export function widenSlots(slots: Slots): Uint32Array {
  const wide = new Uint32Array(slots.length);
  wide.set(slots);
  return wide;
}

/** Slots from codes (−1 "no value"), narrowed to the dictionary. */
export function slotsOfCodes(codes: Int32Array, entries: number): Slots {
  const wide = new Uint32Array(codes.length);
  for (let row = 0; row < codes.length; row++) wide[row] = codes[row]! + 1;
  return narrowSlots(wide, entries);
}
