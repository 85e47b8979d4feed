/**
 * A coded column's rows as slots: 0 is "no value", slot s is dictionary code s − 1. As narrow as
 * the dictionary allows, so kernels index their tables by slot with no adjustment.
 */
export type Slots = Uint8Array | Uint16Array | Uint32Array;

/** Slots for `size` rows of a dictionary of `entries` values, in the narrowest array that holds them. */
export function slotArray(size: number, entries: number): Slots {
  return entries <= 0xff ? new Uint8Array(size) : entries <= 0xffff ? new Uint16Array(size) : new Uint32Array(size);
}

/** Slots from codes (−1 "no value"), narrowed to the dictionary. */
export function slotsOfCodes(codes: ArrayLike<number>, entries: number): Slots {
  const slots = slotArray(codes.length, entries);
  for (let row = 0; row < codes.length; row++) slots[row] = codes[row]! + 1;
  return slots;
}
