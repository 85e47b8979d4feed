import type { ExportColumn, ExportFeature, Geometry } from '@landscreen/feature-export';
import type { discoveryv1 } from '@landscreen/proto';
import { cell, coordinateCell, factColumn, pointOf } from './export-columns.js';

// A ranking (a discovery query paged to its end) as an export table (D40): a row per eligible
// parcel in rank order, its polygon (else its point), the ranking's columns, then one per fact.

const decoder = new TextDecoder();
const parse = (bytes: Uint8Array): unknown => (bytes.length === 0 ? null : JSON.parse(decoder.decode(bytes)));

const RANKING_COLUMNS: readonly ExportColumn[] = [
  { name: 'rank', kind: 'number' },
  { name: 'parcel_key', kind: 'string' },
  { name: 'apn', kind: 'string' },
  { name: 'address', kind: 'string' },
  { name: 'score', kind: 'number' },
  { name: 'verdict', kind: 'string' },
  { name: 'review_required', kind: 'boolean' },
  { name: 'unknowns', kind: 'string' },
  { name: 'acres', kind: 'number' },
  { name: 'developable_acres', kind: 'number' },
  { name: 'lat', kind: 'number' },
  { name: 'lon', kind: 'number' },
];
const OWN = new Set(RANKING_COLUMNS.map((column) => column.name));

/**
 * The facts a ranking export shows when the caller chose none: those its buy box's rules read,
 * in the spec's order (must rules, then preferred), each once.
 */
export function specFields(spec: discoveryv1.BuyBoxSpec | undefined): string[] {
  return [...new Set([...(spec?.must ?? []).map((rule) => rule.field), ...(spec?.preferred ?? []).map((rule) => rule.field)])];
}

/** The export's columns: the ranking's own, then a column per fact (named as the fact; one the ranking already has is not repeated). */
export function rankingColumns(fields: readonly string[], firstPage: readonly discoveryv1.DiscoveryResult[]): ExportColumn[] {
  const facts = firstPage.map((result) => parse(result.factsJson) as Record<string, unknown> | null);
  return [...RANKING_COLUMNS, ...fields.filter((field) => !OWN.has(field)).map((field) => factColumn(field, facts.map((row) => row?.[field])))];
}

/** One ranked parcel as an export feature; `rank` counts from 1. */
export function rankingFeature(result: discoveryv1.DiscoveryResult, rank: number, columns: readonly ExportColumn[]): ExportFeature {
  const facts = (parse(result.factsJson) ?? {}) as Record<string, unknown>;
  const properties: ExportFeature['properties'] = {
    rank,
    parcel_key: result.parcelKey,
    apn: result.apn ?? null,
    address: result.address ?? null,
    score: result.score,
    verdict: result.verdict,
    review_required: result.reviewRequired,
    unknowns: result.unknowns.join(';'),
    acres: result.acres ?? null,
    developable_acres: result.developableAcres ?? null,
    lat: coordinateCell(result.lat),
    lon: coordinateCell(result.lon),
  };
  for (let at = RANKING_COLUMNS.length; at < columns.length; at++) {
    const column = columns[at]!;
    properties[column.name] = cell(facts[column.name], column);
  }
  const geometry = (parse(result.geometryJson) as Geometry | null) ?? pointOf(result.lat, result.lon);
  return { geometry, properties };
}
