import { preparePGliteTemplate, prepareTemplateDatabase } from '@landscreen/testing';

/** The migrated templates every suite starts from: a PostgreSQL database, and a PGlite one. */
export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
  await preparePGliteTemplate();
}
