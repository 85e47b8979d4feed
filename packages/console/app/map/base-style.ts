import type { StyleSpecification } from 'maplibre-gl';
import { mesh } from 'topojson-client';

/**
 * The default base (D40): the Census state and county outlines of us-atlas, served by the gateway
 * and meshed here into lines, on a plain background — no tile service, no fonts, nothing from the
 * internet. With BASEMAP_STYLE_URL the operator's style is drawn instead.
 */
export async function baseStyle(basemapStyleUrl: string | null): Promise<StyleSpecification | string> {
  if (basemapStyleUrl) return basemapStyleUrl;
  const topology: any = await (await fetch('/console/counties-10m.json')).json();
  const counties = mesh(topology, topology.objects.counties, (a, b) => a !== b && ((a as any).id / 1000 | 0) === ((b as any).id / 1000 | 0));
  const states = mesh(topology, topology.objects.states, (a, b) => a !== b);
  const nation = mesh(topology, topology.objects.nation);
  return {
    version: 8,
    // The outlines are drawn at 1:10,000,000: past zoom 7 their tiles hold no more detail, so
    // MapLibre's worker cuts them no deeper and scales those up (zoom 10's tiles cost it nothing).
    sources: {
      counties: { type: 'geojson', data: counties, maxzoom: 7 },
      states: { type: 'geojson', data: states, maxzoom: 7 },
      nation: { type: 'geojson', data: nation, maxzoom: 7 },
    },
    layers: [
      { id: 'background', type: 'background', paint: { 'background-color': '#f4f1ea' } },
      { id: 'counties', type: 'line', source: 'counties', minzoom: 5, paint: { 'line-color': '#b9b1a0', 'line-width': 0.6 } },
      { id: 'states', type: 'line', source: 'states', paint: { 'line-color': '#8a8170', 'line-width': 1.2 } },
      { id: 'nation', type: 'line', source: 'nation', paint: { 'line-color': '#6b6354', 'line-width': 1.4 } },
    ],
  };
}
