import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it, type TestContext } from 'vitest';

// The repository carries its own copies of the shared design and spec so that a clone with nothing
// beside it builds and tests; this keeps those copies in step with `../shared` wherever it exists.
const REPO_DOCS = new URL('../docs/', import.meta.url);
const SHARED = new URL('../../shared/', import.meta.url);
const SHARED_PRESENT = existsSync(new URL('DESIGN.md', SHARED)) && existsSync(new URL('spec/', SHARED));
// CI must prove the copies current, so there a missing `../shared` is a failure rather than a skip.
const IN_CI = !['', '0', 'false'].includes((process.env.CI ?? '').toLowerCase());

const ABSENT = `../shared (${SHARED.pathname}) is absent: the copies in docs/ cannot be checked against it`;

function requireShared(context: TestContext): void {
  if (SHARED_PRESENT) return;
  if (IN_CI) throw new Error(`${ABSENT}, and CI is set, where that check must run`);
  context.skip(`${ABSENT} (skipped; under CI=true this fails)`);
}

const read = (url: URL) => readFileSync(url, 'utf8');
const sharedSpecFiles = () => readdirSync(new URL('spec/', SHARED)).filter((name) => name.endsWith('.md')).sort();

describe('the design and spec the repository carries', () => {
  it('docs/design.md is ../shared/DESIGN.md below its one header line', (context) => {
    requireShared(context);
    const [header, ...rest] = read(new URL('design.md', REPO_DOCS)).split('\n');
    expect(header).toMatch(/kept in step with the shared design/i);
    expect(rest.join('\n'), 'refresh docs/design.md from ../shared/DESIGN.md, keeping line 1').toBe(
      read(new URL('DESIGN.md', SHARED)),
    );
  });

  it('docs/spec holds exactly the documents of ../shared/spec', (context) => {
    requireShared(context);
    const repoFiles = readdirSync(new URL('spec/', REPO_DOCS)).sort();
    expect(repoFiles).toEqual(sharedSpecFiles());
  });

  it('every document of docs/spec equals its ../shared/spec original byte for byte', (context) => {
    requireShared(context);
    for (const name of sharedSpecFiles()) {
      const copy = new URL(`spec/${name}`, REPO_DOCS);
      expect(existsSync(copy), `docs/spec/${name} is missing`).toBe(true);
      expect(read(copy), `refresh docs/spec/${name} from ../shared/spec/${name}`).toBe(
        read(new URL(`spec/${name}`, SHARED)),
      );
    }
  });
});
