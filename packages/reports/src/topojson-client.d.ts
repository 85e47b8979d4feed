// topojson-client ships no types: the one function used here, as its README documents it.
declare module 'topojson-client' {
  export function feature(topology: unknown, object: unknown): { type: 'FeatureCollection'; features: { id?: string; properties: { name?: string } | null; geometry: { type: string; coordinates: unknown } | null }[] };
}
