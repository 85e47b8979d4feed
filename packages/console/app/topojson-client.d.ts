// topojson-client ships no types: the one function used here, as its README documents it.
declare module 'topojson-client' {
  export function mesh(topology: unknown, object?: unknown, filter?: (a: unknown, b: unknown) => boolean): GeoJSON.MultiLineString;
}
