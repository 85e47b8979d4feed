import type { TestProject } from 'vitest/node';
import { preparePGliteTemplate, prepareTemplateDatabase } from '@landscreen/testing';
import { buildFromSources } from './support/build.js';

/**
 * The build of the current sources (the `landscreen` processes tests start run it: test/support/
 * cli-process.ts), and the migrated templates every suite starts from: a PostgreSQL database, and
 * a PGlite one. Watch mode builds again before every rerun, so an edited source is never tested
 * through an older build.
 */
export default async function setup(project: TestProject): Promise<void> {
  await buildFromSources();
  project.onTestsRerun(() => buildFromSources());
  await prepareTemplateDatabase();
  await preparePGliteTemplate();
}
