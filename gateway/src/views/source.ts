import type { SourcesResponse } from '@landscreen/api-schemas';
import type { catalogv1 } from '@landscreen/proto';

type SourceRecord = SourcesResponse['sources'][number];

/** A source of ListSources as GET /v1/meta/sources answers it (snake_case, nulls for absent). */
export function sourceRecord(source: catalogv1.SourceInfo): SourceRecord {
  const version = source.current;
  return {
    id: source.id,
    geometry: source.geometry as SourceRecord['geometry'],
    properties: source.properties.map((property) => ({ name: property.name, type: property.type as SourceRecord['properties'][number]['type'] })),
    band: source.band === '' ? null : source.band,
    fields: source.fields,
    source_url: source.url,
    current_version:
      version === undefined
        ? null
        : {
            id: version.id,
            name: version.name,
            format: version.format as NonNullable<SourceRecord['current_version']>['format'],
            file_name: version.fileName,
            crs: version.crs,
            feature_count: Number(version.featureCount),
            bbox: version.bbox.length === 4 ? version.bbox : null,
            loaded_at: version.loadedAt,
          },
  };
}

/** GET /v1/meta/sources: every layer source the engine reads. */
export function sourceListJson(sources: readonly catalogv1.SourceInfo[]): SourcesResponse {
  return { sources: sources.map(sourceRecord) };
}
