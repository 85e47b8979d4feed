// A real browser for the console's tests: Debian's Chromium driven by playwright-core (nothing
// downloaded), WebGL through SwiftShader so MapLibre draws without a GPU, a fresh profile each
// launch. Pages are checked with axe-core injected into them and read back as screenshots.

import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';

const require = createRequire(import.meta.url);

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/console');

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    // No deadline of its own (Playwright's is 30 s): a start-up waits on readiness, bounded by the hook's timeout.
    timeout: 0,
    args: [
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--ignore-gpu-blocklist',
      '--no-sandbox',
      '--disable-gpu-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
}

/** Writes a screenshot of the page to test-artifacts/console/<name>.png and answers its pixels. */
export async function screenshot(page: Page, name: string): Promise<PNG> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const bytes = await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
  return PNG.sync.read(bytes);
}

/** The colour of the screenshot's pixel at (x, y) CSS pixels (device scale 1). */
export function pixelAt(png: PNG, x: number, y: number): [number, number, number] {
  const at = (Math.round(y) * png.width + Math.round(x)) * 4;
  return [png.data[at]!, png.data[at + 1]!, png.data[at + 2]!];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousViolations(page: Page): Promise<{ id: string; help: string; targets: string[] }[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async () => {
    const result = await (globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<{ violations: AxeViolation[] }> } }).axe.run((globalThis as any).document, { resultTypes: ['violations'] });
    return result.violations;
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({ id: violation.id, help: violation.help, targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')) }));
}
