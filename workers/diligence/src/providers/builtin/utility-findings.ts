import type { StepProvider } from '../provider.js';
import { BUILTIN_PROVIDER, builtinResult, noFacts, parcelFacts, presentFacts, vintageCitation } from './builtin-result.js';

const UTILITY_FACTS = [
  'electric_utility_service_territory',
  'egrid_subregion',
  'avg_retail_electricity_price_industrial_usd_per_kwh',
  'grid_price_usd_per_mwh',
  'nearest_gas_pipeline_distance_m',
  'nearest_gas_pipeline_operator',
  'natural_gas_industrial_price_usd_per_mcf',
  'nearest_public_water_system_name',
  'fiber_broadband_available',
  'fiber_provider_count',
] as const;

/**
 * utility_findings: the utility-side facts stored with the parcel — who serves it with power, at
 * what price, and what gas, water and fiber are near. Ready when the electric service territory
 * is known, partial with other utility facts only, needs_review with none.
 */
export const utilityFindingsProvider: StepProvider = {
  name: BUILTIN_PROVIDER,
  async run(input) {
    const facts = parcelFacts(input);
    if (!facts) return noFacts(input, 'Utility findings');
    const utilities = presentFacts(facts, UTILITY_FACTS);
    const known = Object.keys(utilities);
    const territory = utilities.electric_utility_service_territory;
    const summary = territory
      ? `Served by ${String(territory)}${known.length > 1 ? `; ${known.length - 1} more utility facts on record` : ''}.`
      : known.length
        ? `Electric service territory unknown; ${known.length} utility facts on record.`
        : 'No utility facts are stored for this parcel.';
    const status = territory ? 'ready' : known.length ? 'partial' : 'needs_review';
    return builtinResult(input, status, summary, { utilities }, [vintageCitation(input, known)]);
  },
};
