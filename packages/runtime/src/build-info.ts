import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** `0.2.0+<commit>`: BUILD_ID when the image sets it, else the git commit when there is one. */
export function buildId(env: Record<string, string | undefined> = process.env): string {
  if (env.BUILD_ID) return env.BUILD_ID;
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 2000 })
      .toString()
      .trim();
    return commit ? `${VERSION}+${commit}` : VERSION;
  } catch {
    return VERSION;
  }
}
