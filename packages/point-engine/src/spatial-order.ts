// The order the engine answers a batch of locations in: along a Hilbert curve over the batch's
// bounding box. Each location asks every loaded layer's tree and the features near it; answered
// in the caller's order (random points, or parcels keyed by anything), consecutive locations are
// far apart and every search walks memory no recent search touched, so over large layers the
// engine waits on cache misses. Neighbours on the curve are neighbours on the ground and share
// tree nodes and features. Answers are still packed at each location's own row.

/** Batches smaller than this are answered in the caller's order (sorting would cost more). */
const ORDER_FROM = 64;
const HILBERT_BITS = 16;

/** Positions 0..n-1 in the order to answer them (the identity for small batches). */
export function answerOrder(lons: ArrayLike<number>, lats: ArrayLike<number>, n: number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  // Keys hold the position in their low 20 bits: larger batches (beyond any request's) keep their order.
  if (n < ORDER_FROM || n >= 2 ** 20) return order;
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    const x = lons[i];
    const y = lats[i];
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  if (!(maxX > minX || maxY > minY)) return order;
  const side = (1 << HILBERT_BITS) - 1;
  const sx = maxX > minX ? side / (maxX - minX) : 0;
  const sy = maxY > minY ? side / (maxY - minY) : 0;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const x = Number.isFinite(lons[i]) ? Math.floor((lons[i] - minX) * sx) : 0;
    const y = Number.isFinite(lats[i]) ? Math.floor((lats[i] - minY) * sy) : 0;
    // The curve position in the high bits, the location's position in the low ones: one numeric sort.
    keys[i] = hilbert(x, y) * 2 ** 20 + i;
  }
  keys.sort();
  for (let i = 0; i < n; i++) order[i] = keys[i] % 2 ** 20;
  return order;
}

/** The position of cell (x, y) on a Hilbert curve over 2^16 x 2^16 cells (Flatbush's formula, unsigned). */
function hilbert(x: number, y: number): number {
  let a = x ^ y;
  let b = 0xffff ^ a;
  let c = 0xffff ^ (x | y);
  let d = x & (y ^ 0xffff);
  let A = a | (b >> 1);
  let B = (a >> 1) ^ a;
  let C = c ^ ((c >> 1) ^ (b & (d >> 1)));
  let D = d ^ ((a & (c >> 1)) ^ (d >> 1));
  a = (A & (A >> 2)) ^ (B & (B >> 2));
  b = (A & (B >> 2)) ^ (B & ((A ^ B) >> 2));
  c = C ^ ((A & (C >> 2)) ^ (B & (D >> 2)));
  d = D ^ ((B & (C >> 2)) ^ ((A ^ B) & (D >> 2)));
  A = (a & (a >> 4)) ^ (b & (b >> 4));
  B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4));
  C = c ^ ((a & (c >> 4)) ^ (b & (d >> 4)));
  D = d ^ ((b & (c >> 4)) ^ ((a ^ b) & (d >> 4)));
  c = C ^ ((A & (C >> 8)) ^ (B & (D >> 8)));
  d = D ^ ((B & (C >> 8)) ^ ((A ^ B) & (D >> 8)));
  c ^= c >> 1;
  d ^= d >> 1;
  a = x ^ y;
  b = d | (0xffff ^ (a | c));
  a = (a | (a << 8)) & 0x00ff00ff;
  a = (a | (a << 4)) & 0x0f0f0f0f;
  a = (a | (a << 2)) & 0x33333333;
  a = (a | (a << 1)) & 0x55555555;
  b = (b | (b << 8)) & 0x00ff00ff;
  b = (b | (b << 4)) & 0x0f0f0f0f;
  b = (b | (b << 2)) & 0x33333333;
  b = (b | (b << 1)) & 0x55555555;
  return ((b << 1) | a) >>> 0;
}
