// Its own file because the errors, the import limits and the feature types all name it.

/** Where a feature is in its file, for error messages an operator can act on. */
export interface FeaturePosition {
  /** 1-based ordinal of the feature in the file (for a Shapefile: its record number). */
  index: number;
  /** 1-based line where the feature starts, for line-based formats (GeoJSON, NDJSON, CSV). */
  line?: number;
  /** A Shapefile's record number (1-based, as the .shp numbers them; equal to index). */
  record?: number;
  /** A spreadsheet's row number (1-based, as the sheet shows it). */
  row?: number;
}
