import { prepareTemplateDatabase } from '@landscreen/testing';

export default async function setup(): Promise<void> {
  await prepareTemplateDatabase();
}
