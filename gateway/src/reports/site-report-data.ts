import type { CallOptions } from '@connectrpc/connect';
import { siteReportFromProperty, storedGeometry, type GridInput, type ParcelFallback, type SiteReport } from '@landscreen/reports';
import type { ServiceClients } from '../clients.js';

type Point = { lat?: number; lon?: number };
const located = (point: Point): point is { lat: number; lon: number } => typeof point.lat === 'number' && typeof point.lon === 'number';

/** Pairs of a flat lon, lat, lon, lat, … list. */
function positions(lonLat: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < lonLat.length; i += 2) out.push([lonLat[i]!, lonLat[i + 1]!]);
  return out;
}

/**
 * The nearest substation and transmission line at each point, from the catalog's current grid
 * layers, in one call (a point without coordinates gets none), with a line's course near it.
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
        paths: feature.paths.map((path) => positions(path.lonLat)),
      })),
      layerVersions: Object.fromEntries(features.map((feature) => [feature.source, feature.layerVersionId])),
    };
  });
}

/**
 * The parcel of a vintage as discovery has it, for a property stored without its geometry;
 * undefined when discovery no longer has it (the report prints without a drawn parcel and says so).
 */
export async function parcelOfVintage(clients: ServiceClients, property: { vintageId: string; parcelKey: string }, options: CallOptions): Promise<ParcelFallback> {
  if (!property.vintageId || !property.parcelKey) return undefined;
  try {
    return (await clients.discovery.getParcel({ vintageId: property.vintageId, parcelKey: property.parcelKey }, options)).parcel;
  } catch {
    return undefined;
  }
}

/**
 * D30: what the site report prints — the property page of D28 (tenant-scoped: another tenant's
 * property is 404 there), the parcel geometry stored with it at promotion (else read from its
 * vintage), and the grid features near its point.
 */
export async function propertyReport(clients: ServiceClients, propertyId: string, options: CallOptions, generatedAt: Date): Promise<SiteReport> {
  const page = await clients.pipeline.getProperty({ propertyId }, options);
  const property = page.property;
  const [[grid], parcel] = await Promise.all([
    gridAt(clients, [property ?? {}], options),
    property && !storedGeometry(property) ? parcelOfVintage(clients, property, options) : undefined,
  ]);
  return siteReportFromProperty(page, grid!, generatedAt, parcel);
}
