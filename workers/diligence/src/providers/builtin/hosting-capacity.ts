import type { StepProvider } from '../provider.js';
import { BUILTIN_PROVIDER, builtinResult, km, noFacts, parcelFacts, presentFacts, vintageCitation } from './builtin-result.js';

const GRID_FACTS = [
  'nearest_substation_distance_m',
  'nearest_substation_max_voltage_kv',
  'nearest_substation_status',
  'substations_within_radius_count',
  'nearest_transmission_line_distance_m',
  'nearest_transmission_line_voltage_kv',
  'max_transmission_line_voltage_kv_within_radius',
  'transmission_lines_within_radius_count',
  'interconnection_queue_active_capacity_county_mw',
] as const;

/**
 * hosting_capacity: the grid facts stored with the parcel that bear on hosting capacity — the
 * nearest substation and transmission line, their voltages, what is queued in the county. It
 * reports them; it does not invent a megawatt figure (that takes a load-flow study, which an HTTP
 * provider can supply). Ready when the nearest substation's distance and voltage are known,
 * partial with some grid facts, needs_review with none.
 */
export const hostingCapacityProvider: StepProvider = {
  name: BUILTIN_PROVIDER,
  async run(input) {
    const facts = parcelFacts(input);
    if (!facts) return noFacts(input, 'Hosting capacity');
    const grid = presentFacts(facts, GRID_FACTS);
    const known = Object.keys(grid);
    const substationKnown = 'nearest_substation_distance_m' in grid && 'nearest_substation_max_voltage_kv' in grid;
    const parts: string[] = [];
    if ('nearest_substation_distance_m' in grid) {
      const kv = 'nearest_substation_max_voltage_kv' in grid ? ` (${grid.nearest_substation_max_voltage_kv} kV)` : '';
      parts.push(`nearest substation ${km(grid.nearest_substation_distance_m)} away${kv}`);
    }
    if ('nearest_transmission_line_distance_m' in grid) {
      const kv = 'nearest_transmission_line_voltage_kv' in grid ? ` (${grid.nearest_transmission_line_voltage_kv} kV)` : '';
      parts.push(`nearest transmission line ${km(grid.nearest_transmission_line_distance_m)}${kv}`);
    }
    const summary = known.length
      ? `Grid on record: ${parts.length ? parts.join('; ') : `${known.length} grid facts`}. Indicative only; no load-flow study.`
      : 'No grid facts are stored for this parcel.';
    const status = substationKnown ? 'ready' : known.length ? 'partial' : 'needs_review';
    return builtinResult(input, status, summary, { grid }, [vintageCitation(input, known)]);
  },
};
