import { Type } from '@sinclair/typebox';
import { EXPORT_FORMATS } from '@landscreen/feature-export';

/** The `format` query parameter of an export (D40). */
export const ExportFormatParam = Type.Union(
  EXPORT_FORMATS.map((format) => Type.Literal(format)),
  { description: 'D40: the resource as a file: geojson, kml, csv, shapefile (a zip of .shp, .shx, .dbf, .prj, .cpg) or gpkg (GeoPackage).' },
);
