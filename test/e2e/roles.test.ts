import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { rolesMarkdown } from '../../scripts/roles-table.js';
import { valid, type EndpointKey } from '../conformance/valid-requests.js';

const ROLES = ['admin', 'analyst', 'viewer', 'worker'] as const;
const DOC = readFileSync(new URL('../../docs/roles.md', import.meta.url), 'utf8');

/** The rows of docs/roles.md: the table the behaviour is checked against. */
function documentedRows() {
  return DOC.split('\n')
    .filter((line) => /^\| (GET|POST|PUT|PATCH|DELETE) \|/.test(line))
    .map((line) => {
      const [method, path, ...cells] = line.split('|').slice(1, -1).map((cell) => cell.trim());
      return {
        key: `${method} ${path}` as EndpointKey,
        public: cells[4] === 'public',
        allowed: Object.fromEntries(ROLES.map((role, index) => [role, cells[index] === '✓'])) as Record<(typeof ROLES)[number], boolean>,
      };
    });
}

describe('docs/roles.md', () => {
  it('is what the route table generates (npm run docs:roles)', () => {
    expect(DOC).toBe(rolesMarkdown());
  });
});

describe.each(DATABASE_MODES)('the role table of docs/roles.md, cell by cell, on %s', (mode) => {
  let app: TestStack;
  beforeAll(async () => {
    app = await startTestStack(mode);
  });
  afterAll(() => app?.close());

  const rows = documentedRows();
  it('covers every endpoint', () => expect(rows.length).toBeGreaterThan(40));

  for (const row of rows) {
    if (row.public) {
      it(`${row.key} needs no credentials`, async () => {
        const request = valid(row.key);
        const response = await app.request(request.method, request.path, { body: request.body, query: request.query });
        // (verify may still refuse the made-up link itself: 401 invalid_link)
        expect(['unauthenticated', 'forbidden']).not.toContain(response.body?.code);
      });
      continue;
    }
    for (const role of ROLES) {
      it(`${row.key} as ${role}: ${row.allowed[role] ? 'allowed' : '403'}`, async () => {
        const request = valid(row.key);
        const headers = { authorization: `Bearer dev:${role}@roles.test:${role}`, 'x-tenant': 'roles' };
        const response = await app.request(request.method, request.path, { body: request.body, query: request.query, headers });
        if (row.allowed[role]) {
          expect([401, 403], JSON.stringify(response.body)).not.toContain(response.status);
        } else {
          expect(response.status).toBe(403);
          expect(response.body.code).toBe('forbidden');
        }
      });
    }
  }
});
