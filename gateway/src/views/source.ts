import type { catalogv1 } from '@landscreen/proto';

/** A source of ListSources as GET /v1/meta/sources answers it (snake_case, nulls for absent). */
export function sourceRecord(source: catalogv1.SourceInfo) {
  const version = source.current;
  return {
    id: source.id,
    geometry: source.geometry,
    properties: source.properties.map((property) => ({ name: property.name, type: property.type })),
    band: source.band === '' ? null : source.band,
    fields: source.fields,
    source_url: source.url,
    current_version:
      version === undefined
        ? null
        : {
            id: version.id,
            name: version.name,
            format: version.format,
            file_name: version.fileName,
            crs: version.crs,
            feature_count: Number(version.featureCount),
            bbox: version.bbox.length === 4 ? version.bbox : null,
            loaded_at: version.loadedAt,
          },
  };
}
