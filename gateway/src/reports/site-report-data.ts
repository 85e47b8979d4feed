import type { CallOptions } from '@connectrpc/connect';
import { siteReportFromPropertyPage, type GridInput, type SiteReport } from '@landscreen/reports';
import * as discoveryjson from '@landscreen/discovery-json';
import type { ServiceClients } from '../clients.js';
import { propertyPageJson } from '../views/property.js';


type Point = { lat: unknown; lon: unknown };
const located = (point: Point): point is { lat: number; lon: number } => typeof point.lat === 'number' && typeof point.lon === 'number';

/**
 * The nearest substation and transmission line at each point, from the catalog's current grid
 * layers, in one call (a point without coordinates gets none).
 */
export async function gridAt(clients: ServiceClients, points: Point[], options: CallOptions): Promise<GridInput[]> {
  const asked = points.filter(located);
  const answer = asked.length > 0 ? await clients.catalog.nearestGridFeatures({ points: asked }, options) : { loadedSources: [], results: [] };
  let next = 0;
  return points.map((point) => {
    if (!located(point)) return { loadedSources: answer.loadedSources, features: [] };
    const features = answer.results[next++]?.features ?? [];
    return {
      loadedSources: answer.loadedSources,
      features: features.map((feature) => ({
        kind: feature.kind === 'substation' ? ('substation' as const) : ('transmission_line' as const),
        lat: feature.lat,
        lon: feature.lon,
        distanceM: feature.distanceM,
        voltageKv: feature.voltageKv ?? null,
        status: feature.status ?? null,
        name: feature.name ?? null,
      })),
      layerVersions: Object.fromEntries(features.map((feature) => [feature.source, feature.layerVersionId])),
    };
  });
}

export interface PropertyPage {
  page: Record<string, any>;
  report: SiteReport;
}

/**
 * D30: what the site report prints — the property page of D28 (tenant-scoped: another tenant's
 * property is 404 there), the parcel geometry stored with it at promotion (else read from its
 * vintage), and the grid features near its point.
 */
export async function propertyReport(clients: ServiceClients, propertyId: string, options: CallOptions, generatedAt: Date): Promise<PropertyPage> {
  const page: Record<string, any> = propertyPageJson(await clients.pipeline.getProperty({ propertyId }, options));
  const [[grid]] = await Promise.all([gridAt(clients, [page.property ?? {}], options), withParcelGeometry(clients, page, options)]);
  return { page, report: siteReportFromPropertyPage(page, grid!, generatedAt) };
}

/**
 * A property stored without its parcel geometry gets the parcel of its vintage, when discovery
 * still has it; else the report prints without a drawn parcel (the map says so).
 */
export async function withParcelGeometry(clients: ServiceClients, page: Record<string, any>, options: CallOptions): Promise<void> {
  const property = page.property ?? {};
  if (property.parcel?.geometry || typeof property.vintage_id !== 'string' || typeof property.parcel_key !== 'string') return;
  try {
    const found = await clients.discovery.getParcel({ vintageId: property.vintage_id, parcelKey: property.parcel_key }, options);
    page.property = { ...property, parcel: found.parcel ? discoveryjson.parcelCandidateValue(found.parcel) : null };
  } catch {
    // The page itself was readable; the map says it has no geometry.
  }
}
