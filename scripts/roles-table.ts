/**
 * Writes docs/roles.md from the gateway's route table (npm run docs:roles). The end-to-end role
 * test reads that file and drives every endpoint with every role, so the document, the table and
 * the behaviour cannot drift apart.
 */
import { writeFileSync } from 'node:fs';
import { ROUTES } from '@landscreen/gateway';

const ROLES = ['admin', 'analyst', 'viewer', 'worker'] as const;

export function rolesMarkdown(): string {
  const lines = [
    '# Who may call what (D8)',
    '',
    'Generated from the gateway route table by `npm run docs:roles`; `test/e2e/roles.test.ts` reads this',
    'table and checks every cell over HTTP. ✓ allowed, ✗ answered 403 `forbidden`. "public" needs no',
    'credentials; "service token" also admits a service token (`x-service-token-id` + bearer secret).',
    '',
    '- `viewer` reads only; `analyst` reads and writes buy boxes, discovery, pipeline and leads (and',
    '  point-data purchases); `admin` all of that plus reveal and internal endpoints; `worker` internal',
    '  endpoints and reveal only. Every signed-in role may read `/v1/me` and log out.',
    '',
    `| Method | Path | ${ROLES.join(' | ')} | notes |`,
    `|---|---|${ROLES.map(() => ':-:').join('|')}|---|`,
  ];
  for (const route of ROUTES) {
    if (route.security === 'none') {
      lines.push(`| ${route.method} | ${route.path} | ${ROLES.map(() => '·').join(' | ')} | public |`);
      continue;
    }
    const cells = ROLES.map((role) => ((route.roles ?? []).includes(role) ? '✓' : '✗'));
    lines.push(`| ${route.method} | ${route.path} | ${cells.join(' | ')} | ${route.security === 'service-token' ? 'service token' : ''} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(new URL('../docs/roles.md', import.meta.url), rolesMarkdown());
  console.log('wrote docs/roles.md');
}
