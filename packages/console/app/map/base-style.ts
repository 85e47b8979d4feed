import type { GeoJSONSource, Map as MapLibre, StyleSpecification } from 'maplibre-gl';
import { mesh } from 'topojson-client';

const NOTHING: GeoJSON.FeatureCollection = { type: 'FeatureCollection', features: [] };
const OUTLINES = ['counties', 'states', 'nation'] as const;

/**
 * The default base (D40): the Census state and county outlines of us-atlas, served by the gateway
 * and meshed in the page into lines, on a plain background — no tile service, no fonts, nothing
 * from the internet. The style starts with the outlines empty (loadOutlines fills them), so the
 * map has its style at once. With BASEMAP_STYLE_URL the operator's style is drawn instead.
 */
export function baseStyle(basemapStyleUrl: string | null): StyleSpecification | string {
  if (basemapStyleUrl) return basemapStyleUrl;
  return {
    version: 8,
    // The outlines are drawn at 1:10,000,000: past zoom 7 their tiles hold no more detail, so
    // MapLibre's worker cuts them no deeper and scales those up (zoom 10's tiles cost it nothing).
    sources: Object.fromEntries(OUTLINES.map((id) => [id, { type: 'geojson', data: NOTHING, maxzoom: 7 }])),
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } },
      { id: 'counties', type: 'line', source: 'counties', minzoom: 5, paint: { 'line-color': '#b9b1a0', 'line-width': 0.6 } },
      { id: 'states', type: 'line', source: 'states', paint: { 'line-color': '#8a8170', 'line-width': 1.2 } },
      { id: 'nation', type: 'line', source: 'nation', paint: { 'line-color': '#6b6354', 'line-width': 1.4 } },
    ],
  };
}

/** The outlines into the default base's sources: us-atlas's counties (the page preloads the file), meshed into lines. */
export async function loadOutlines(map: MapLibre): Promise<void> {
  const topology: any = await (await fetch('/console/counties-10m.json')).json();
  const lines = {
    counties: mesh(topology, topology.objects.counties, (a, b) => a !== b && ((a as any).id / 1000 | 0) === ((b as any).id / 1000 | 0)),
    states: mesh(topology, topology.objects.states, (a, b) => a !== b),
    nation: mesh(topology, topology.objects.nation),
  };
  for (const id of OUTLINES) (map.getSource(id) as GeoJSONSource | undefined)?.setData(lines[id]);
}
