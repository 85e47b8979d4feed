// The ranked list's rows in a real browser: the console's VirtualList (packages/console/app/views/
// virtual-list.ts), bundled as the console is, holding 100,000 rows. Only the rows in sight (and
// a few either side) are in the page, wherever the list is scrolled to.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, screenshot } from '../support/browser.js';

const APP_DIR = path.resolve(import.meta.dirname, '../../packages/console/app');
const ROWS = 100_000;
const ROW_HEIGHT = 44;
const LIST_HEIGHT = 600;

describe('the ranked list\'s rows (VirtualList) in Chromium', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    const bundle = await build({
      stdin: { contents: "import { VirtualList } from './views/virtual-list.js'; (globalThis as any).VirtualList = VirtualList;", resolveDir: APP_DIR, loader: 'ts' },
      bundle: true,
      write: false,
      format: 'iife',
      platform: 'browser',
      logLevel: 'silent',
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 500, height: 800 } });
    // Only the test's timeout bounds a wait (docs/decisions.md): Playwright's own 30 s default is a deadline.
    page.setDefaultTimeout(0);
    await page.setContent(`<!doctype html><html><body><div id="host" style="display:flex;flex-direction:column;height:${LIST_HEIGHT}px"></div></body></html>`);
    await page.addStyleTag({ content: await readFile(path.join(APP_DIR, 'styles.css'), 'utf8') });
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  });

  afterAll(async () => {
    await browser?.close();
  });

  const rowsInPage = () => page.evaluate(() => [...(globalThis as any).document.querySelectorAll('#host .row')].map((row: any) => Number(row.dataset.index)));

  it(`holds ${ROWS.toLocaleString('en-US')} rows with only those in sight in the page, at the top and at the end`, async () => {
    await page.evaluate(
      ({ rows, rowHeight }) => {
        const g = globalThis as any;
        const list = new g.VirtualList('Ranked parcels', rowHeight, (item: { i: number }) => {
          const row = g.document.createElement('button');
          row.className = 'row';
          row.dataset.index = String(item.i);
          row.textContent = `Parcel ${item.i}`;
          return row;
        });
        g.document.getElementById('host').append(list.element);
        list.setItems(Array.from({ length: rows }, (_, i) => ({ i })));
        g.list = list;
      },
      { rows: ROWS, rowHeight: ROW_HEIGHT },
    );
    const sight = Math.ceil(LIST_HEIGHT / ROW_HEIGHT);
    const top = await rowsInPage();
    expect(Math.min(...top)).toBe(0);
    expect(top.length).toBeLessThanOrEqual(sight + 12);
    // The spacer is as tall as every row, so the scrollbar is the whole list's.
    expect(await page.evaluate(() => (globalThis as any).list.element.scrollHeight)).toBe(ROWS * ROW_HEIGHT);

    await page.evaluate(() => {
      const list = (globalThis as any).list;
      list.element.scrollTop = list.element.scrollHeight;
    });
    await page.locator('#host .row[data-index="99999"]').waitFor();
    const end = await rowsInPage();
    expect(end.length).toBeLessThanOrEqual(sight + 12);
    expect(Math.min(...end)).toBeGreaterThan(ROWS - sight - 12);
    await screenshot(page, 'virtual-list-end');

    // The middle, by the list's own scroll.
    await page.evaluate(() => (globalThis as any).list.scrollToIndex(50_000));
    await page.locator('#host .row[data-index="50000"]').waitFor();
    expect((await rowsInPage()).length).toBeLessThanOrEqual(sight + 12);
  });
});
