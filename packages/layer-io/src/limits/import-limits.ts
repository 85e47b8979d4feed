// What one layer import may hold, whatever its file claims. Each limit has the environment
// variable that raises it, so a refusal can name both the limit and the fix. The defaults let a
// state's layer through (NWI Texas: about 2 M polygons from a multi-GB file) and stop a file that
// is hostile or broken long before it exhausts memory or disk.

import { LayerReadError } from '../errors.js';
import type { FeaturePosition } from '../feature-position.js';

export interface ImportLimits {
  /** Features one import may store (LAYER_MAX_FEATURES). */
  maxFeatures: number;
  /** Bytes (UTF-8) of one attribute value (LAYER_MAX_ATTRIBUTE_BYTES). */
  maxAttributeBytes: number;
  /** Positions of one feature's geometry (LAYER_MAX_VERTICES). */
  maxVertices: number;
  /** Nesting of a feature's JSON (its coordinates, its properties) (LAYER_MAX_DEPTH). */
  maxDepth: number;
  /** Uncompressed over compressed size of one zip entry (LAYER_MAX_ZIP_RATIO). */
  maxZipRatio: number;
  /** Bytes one import may inflate out of a zip (LAYER_MAX_ZIP_BYTES). */
  maxZipBytes: number;
}

export const DEFAULT_IMPORT_LIMITS: Readonly<ImportLimits> = Object.freeze({
  maxFeatures: 20_000_000,
  maxAttributeBytes: 64 * 1024,
  maxVertices: 5_000_000,
  maxDepth: 32,
  // Real shapefiles deflate 2-20x; a .dbf of blank-padded text fields up to about 100x. Deflate's
  // ceiling is about 1,030x, which is where bombs sit.
  maxZipRatio: 200,
  maxZipBytes: 32 * 2 ** 30,
});

/** The environment variable that raises each limit, named in every refusal. */
export const LIMIT_SETTINGS: Readonly<Record<keyof ImportLimits, string>> = Object.freeze({
  maxFeatures: 'LAYER_MAX_FEATURES',
  maxAttributeBytes: 'LAYER_MAX_ATTRIBUTE_BYTES',
  maxVertices: 'LAYER_MAX_VERTICES',
  maxDepth: 'LAYER_MAX_DEPTH',
  maxZipRatio: 'LAYER_MAX_ZIP_RATIO',
  maxZipBytes: 'LAYER_MAX_ZIP_BYTES',
});

/** Entries smaller than this are never refused for their ratio: a kilobyte of zeros is no bomb. */
export const ZIP_RATIO_FLOOR_BYTES = 1 << 20;

export function importLimits(overrides: Partial<ImportLimits> | undefined): ImportLimits {
  const limits = { ...DEFAULT_IMPORT_LIMITS };
  for (const [key, value] of Object.entries(overrides ?? {})) if (value !== undefined) limits[key as keyof ImportLimits] = value;
  return limits;
}

/** A refusal for `limit`: what went past it, the limit with its value, and the setting that raises it. */
export function limitExceeded(
  file: string,
  limit: keyof ImportLimits,
  value: number,
  what: string,
  position?: FeaturePosition,
): LayerReadError {
  const setting = LIMIT_SETTINGS[limit];
  return new LayerReadError(
    file,
    `${what}, more than ${setting} (${value.toLocaleString('en-US')}); raise ${setting} if the file is genuine`,
    position,
  );
}
