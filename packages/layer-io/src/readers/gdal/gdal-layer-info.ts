// What GDAL says about a dataset's layers, in one shape whichever GDAL answered: the native
// `ogrinfo` (text, as GDAL 3.6 of Debian 12 prints it; JSON output came with 3.7) or gdal3.js's
// (JSON).

export interface GdalLayerInfo {
  name: string;
  /** As GDAL names it, without spaces: "MultiPolygon", "Point", "3DLineString", "Unknown", … */
  geometryType: string;
  featureCount: number;
  /** The layer SRS's name (its WKT's first name), null when it has none. */
  srsName: string | null;
  extent: [number, number, number, number] | null;
  fields: { name: string; type: string }[];
}

/** `ogrinfo -ro -so -al -nomd` text, layer by layer. */
export function parseOgrinfoText(text: string): GdalLayerInfo[] {
  const layers: GdalLayerInfo[] = [];
  const lines = text.split(/\r?\n/);
  let layer: GdalLayerInfo | null = null;
  let inWkt = false;
  for (const line of lines) {
    const name = /^Layer name: (.*)$/.exec(line);
    if (name !== null) {
      layer = { name: name[1], geometryType: 'Unknown', featureCount: 0, srsName: null, extent: null, fields: [] };
      layers.push(layer);
      inWkt = false;
      continue;
    }
    if (layer === null) continue;
    if (inWkt) {
      if (line.startsWith('Data axis to CRS axis mapping') || /^(FID|Geometry) Column = /.test(line)) inWkt = false;
      else {
        if (layer.srsName === null && line.trim() !== '(unknown)') layer.srsName = wktName(line) ?? 'the layer\'s CRS';
        continue;
      }
    }
    let match;
    if ((match = /^Geometry: (.*)$/.exec(line)) !== null) layer.geometryType = match[1].replaceAll(' ', '');
    else if ((match = /^Feature Count: (-?\d+)$/.exec(line)) !== null) layer.featureCount = Number(match[1]);
    else if ((match = /^Extent: \((\S+), (\S+)\) - \((\S+), (\S+)\)$/.exec(line)) !== null) {
      layer.extent = [Number(match[1]), Number(match[2]), Number(match[3]), Number(match[4])];
    } else if (line === 'Layer SRS WKT:') inWkt = true;
    else if ((match = /^(.+): ([A-Za-z0-9]+(?:\([A-Za-z0-9]+\))?) \(\d+\.\d+\)/.exec(line)) !== null && !/^(FID|Geometry) Column/.test(line)) {
      layer.fields.push({ name: match[1], type: match[2] });
    }
  }
  return layers;
}

interface OgrinfoJson {
  layers?: {
    name: string;
    featureCount?: number;
    geometryFields?: { type?: string; extent?: number[]; coordinateSystem?: { wkt?: string } }[];
    fields?: { name: string; type: string; subType?: string }[];
  }[];
}

/** gdal3.js's `ogrinfo -json` answer. */
export function fromOgrinfoJson(json: OgrinfoJson): GdalLayerInfo[] {
  return (json.layers ?? []).map((layer) => {
    const geometry = layer.geometryFields?.[0];
    const wkt = geometry?.coordinateSystem?.wkt;
    const extent = geometry?.extent;
    return {
      name: layer.name,
      geometryType: geometry?.type ?? 'None',
      featureCount: layer.featureCount ?? 0,
      srsName: wkt === undefined || wkt === '' ? null : (wktName(wkt) ?? "the layer's CRS"),
      extent: extent?.length === 4 ? (extent as [number, number, number, number]) : null,
      fields: (layer.fields ?? []).map((field) => ({ name: field.name, type: field.subType === undefined ? field.type : `${field.type}(${field.subType})` })),
    };
  });
}

function wktName(wkt: string): string | null {
  return /^\s*[A-Z_0-9]+\s*\[\s*"([^"]*)"/i.exec(wkt)?.[1] ?? null;
}
