#!/usr/bin/env node
// Writes the migrated PGlite database a new data directory starts from (packages/runtime's
// pglite-template.ts), so that the first `npm start` on an empty data directory loads it instead
// of running initdb and every migration. Run by `npm ci` (the root `prepare` script, after the
// build) and by the image build; does nothing when the template of these migrations exists.
import { MIGRATION_PLAN, migratedPGliteTemplate } from '@landscreen/runtime';

const started = Date.now();
const template = await migratedPGliteTemplate(MIGRATION_PLAN, { info: (_fields, message) => console.log(`pglite template: ${message}`) });
console.log(`pglite template: ${template} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
