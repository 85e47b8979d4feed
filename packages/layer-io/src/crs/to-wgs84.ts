/** [x, y] in the file's CRS → [longitude, latitude]; [NaN, NaN] for a point outside the CRS's domain.
 *  Its own file so the closed-form projections and the proj4 wrapper both use it without importing each other. */
export type ToWgs84 = (x: number, y: number) => [number, number];
