// Test helper: fixture files in a private temp dir (nothing binary is committed: every fixture is
// written by the test that reads it).

import { makeTempDir as makeParcelTempDir, type TempDir } from '@landscreen/parcel-io/testing';

export type { TempDir };

export const makeTempDir = (): Promise<TempDir> => makeParcelTempDir('layer-io-');

/** Every feature of an async iterable (tests only: production code streams). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The error an async function rejects with, for assertions on its fields. */
export async function rejection(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
