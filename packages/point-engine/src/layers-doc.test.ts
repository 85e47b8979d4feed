import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { layersMarkdown } from '../../../scripts/layers-doc.js';

describe('docs/layers.md', () => {
  it('is what npm run docs:layers writes from the declarations (run it after changing a source or an evaluator)', () => {
    expect(readFileSync(new URL('../../../docs/layers.md', import.meta.url), 'utf8')).toBe(layersMarkdown());
  });
});
