import type { LayerSpecification } from 'maplibre-gl';

/** A loaded layer source as GET /v1/meta/sources answers it. */
export interface SourceInfo {
  id: string;
  geometry: 'points' | 'lines' | 'polygons' | 'mixed' | 'grid';
  current_version: { id: string; name: string; feature_count: number } | null;
}

export interface LegendEntry {
  label: string;
  colour: string;
  shape: 'dot' | 'line' | 'area';
}

export interface LayerLook {
  title: string;
  layers: (id: string, source: string) => LayerSpecification[];
  legend: LegendEntry[];
}

const TITLES: Record<string, string> = {
  hifld_substations: 'Substations',
  hifld_transmission_lines: 'Transmission lines',
  eia_860_power_plants: 'Power plants',
  usfws_nwi: 'Wetlands',
  fema_nfhl: 'Floodplain',
  census_tiger: 'Census tracts',
};

/** Lines by voltage: the classes of HIFLD's VOLT_CLASS. */
const VOLTAGE: LegendEntry[] = [
  { label: 'under 115 kV', colour: '#8c96c6', shape: 'line' },
  { label: '115–229 kV', colour: '#e08214', shape: 'line' },
  { label: '230–344 kV', colour: '#d6604d', shape: 'line' },
  { label: '345 kV and over', colour: '#67001f', shape: 'line' },
];

const POLYGON_COLOURS: Record<string, string> = { usfws_nwi: '#1b9e77', fema_nfhl: '#2c7fb8', census_tiger: '#7a5195' };

/** How each source is drawn and its legend; a source with no look of its own gets its geometry's plain one. */
export function lookOf(source: SourceInfo): LayerLook {
  const title = TITLES[source.id] ?? source.id.replace(/_/g, ' ');
  if (source.id === 'hifld_transmission_lines') {
    return {
      title,
      legend: VOLTAGE,
      layers: (id, src) => [
        {
          id,
          type: 'line',
          source: src,
          'source-layer': source.id,
          paint: {
            'line-width': ['interpolate', ['linear'], ['zoom'], 6, 0.8, 14, 3],
            'line-color': ['step', ['coalesce', ['get', 'voltage_kv'], 0], VOLTAGE[0]!.colour, 115, VOLTAGE[1]!.colour, 230, VOLTAGE[2]!.colour, 345, VOLTAGE[3]!.colour],
          },
        },
      ],
    };
  }
  if (source.geometry === 'points') {
    const colour = source.id === 'hifld_substations' ? '#5e3c99' : '#b35806';
    return {
      title,
      legend: [{ label: title, colour, shape: 'dot' }],
      layers: (id, src) => [
        { id, type: 'circle', source: src, 'source-layer': source.id, paint: { 'circle-radius': ['interpolate', ['linear'], ['zoom'], 6, 2.5, 14, 6], 'circle-color': colour, 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 1 } },
      ],
    };
  }
  if (source.geometry === 'lines') {
    return { title, legend: [{ label: title, colour: '#525252', shape: 'line' }], layers: (id, src) => [{ id, type: 'line', source: src, 'source-layer': source.id, paint: { 'line-color': '#525252', 'line-width': 1.2 } }] };
  }
  const colour = POLYGON_COLOURS[source.id] ?? '#969696';
  const outlineOnly = source.id === 'census_tiger';
  return {
    title,
    legend: [{ label: title, colour, shape: outlineOnly ? 'line' : 'area' }],
    layers: (id, src) => [
      ...(outlineOnly ? [] : [{ id: `${id}-fill`, type: 'fill', source: src, 'source-layer': source.id, paint: { 'fill-color': colour, 'fill-opacity': 0.3 } } as LayerSpecification]),
      { id, type: 'line', source: src, 'source-layer': source.id, paint: { 'line-color': colour, 'line-width': 1 } },
    ],
  };
}
