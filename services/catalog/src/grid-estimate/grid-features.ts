// The grid facts near a point that the hosting-capacity model reads, asked of the engine as
// catalog fields, so the estimate sees exactly what /v1/fetch/batch would answer there.

import type { SourceId } from '@landscreen/field-catalog';
import type { Engine } from '@landscreen/point-engine';

export interface GridFeature {
  kind: 'substation' | 'transmission_line';
  source: SourceId;
  layerVersion: string;
  distanceM: number;
  voltageKv: number | null;
  status: string | null;
}

export interface GridFacts {
  /** The grid sources with a current layer. */
  loaded: SourceId[];
  /** The nearest feature of each loaded source, when it has one. */
  features: GridFeature[];
}

const KINDS = [
  {
    kind: 'substation',
    source: 'hifld_substations',
    fields: ['nearest_substation_distance_m', 'nearest_substation_max_voltage_kv', 'nearest_substation_status'],
  },
  {
    kind: 'transmission_line',
    source: 'hifld_transmission_lines',
    fields: ['nearest_transmission_line_distance_m', 'nearest_transmission_line_voltage_kv', 'nearest_transmission_line_status'],
  },
] as const;

export function gridFactsAt(engine: Engine, lat: number, lon: number): GridFacts {
  const loaded: SourceId[] = [];
  const features: GridFeature[] = [];
  for (const { kind, source, fields } of KINDS) {
    const layer = engine.layer(source);
    if (!layer) continue;
    loaded.push(source);
    const answer = engine.evaluate([{ lat, lon }], [...fields]);
    const [distance, voltage, status] = [0, 1, 2].map((f) => answer.value(0, f));
    if (typeof distance !== 'number') continue;
    features.push({
      kind,
      source,
      layerVersion: layer.version,
      distanceM: distance,
      voltageKv: typeof voltage === 'number' ? voltage : null,
      status: typeof status === 'string' ? status : null,
    });
  }
  return { loaded, features };
}
