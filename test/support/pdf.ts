import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { checkFetchResponse, type TestStack } from '@landscreen/testing';

// PDFs read back the way a person would see them: poppler-utils (pdfinfo, pdftotext, pdftoppm),
// which .ci/run installs. Nothing here parses PDF bytes itself.

const run = promisify(execFile);

export interface PdfResponse {
  status: number;
  headers: Headers;
  bytes: Buffer;
}

/** GET a PDF over real HTTP, keeping the body as bytes (the JSON client would decode it as text). */
export async function getPdf(app: TestStack, route: string, headers: Record<string, string>): Promise<PdfResponse> {
  const response = await fetch(new URL(route, app.url), { headers });
  await checkFetchResponse('GET', response.url, response);
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function withFile<T>(bytes: Buffer, work: (file: string, dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'landscreen-pdf-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    await writeFile(file, bytes);
    return await work(file, dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** pdfinfo's fields (Pages, Title, …). */
export function pdfInfo(bytes: Buffer): Promise<Record<string, string>> {
  return withFile(bytes, async (file) => {
    const { stdout } = await run('pdfinfo', [file]);
    return Object.fromEntries(stdout.split('\n').filter((line) => line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')).trim(), line.slice(line.indexOf(':') + 1).trim()]));
  });
}

/** The text of every page (pdftotext, in reading order), pages separated by form feeds. */
export function pdfText(bytes: Buffer): Promise<string> {
  return withFile(bytes, async (file) => (await run('pdftotext', ['-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout);
}

export interface Raster {
  width: number;
  height: number;
  /** RGB, 3 bytes a pixel, row by row. */
  pixels: Buffer;
}

/**
 * One page rendered by pdftoppm at `dpi`, cropped to a region given in PDF points (1/72 in) from
 * the top-left corner. Read as PPM (pdftoppm's own raw format: a header and RGB bytes).
 */
export function renderRegion(bytes: Buffer, page: number, region: { x: number; y: number; w: number; h: number }, dpi = 72): Promise<Raster> {
  const scale = dpi / 72;
  return withFile(bytes, async (file, dir) => {
    const crop = [region.x, region.y, region.w, region.h].map((value) => String(Math.round(value * scale)));
    const out = path.join(dir, 'page');
    await run('pdftoppm', ['-r', String(dpi), '-f', String(page), '-l', String(page), '-singlefile', '-x', crop[0]!, '-y', crop[1]!, '-W', crop[2]!, '-H', crop[3]!, file, out]);
    return parsePpm(await readFile(`${out}.ppm`));
  });
}

function parsePpm(data: Buffer): Raster {
  // "P6\n<width> <height>\n<maxval>\n" then the pixels.
  const fields: string[] = [];
  let offset = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(data[offset]!))) offset++;
    let token = '';
    while (!/\s/.test(String.fromCharCode(data[offset]!))) token += String.fromCharCode(data[offset++]!);
    fields.push(token);
  }
  if (fields[0] !== 'P6' || fields[3] !== '255') throw new Error(`not an 8-bit PPM: ${fields.join(' ')}`);
  const width = Number(fields[1]);
  const height = Number(fields[2]);
  return { width, height, pixels: data.subarray(offset + 1, offset + 1 + width * height * 3) };
}

/** How many pixels of a raster satisfy `test(r, g, b)`. */
export function countPixels(raster: Raster, test: (r: number, g: number, b: number) => boolean): number {
  let count = 0;
  for (let i = 0; i < raster.pixels.length; i += 3) if (test(raster.pixels[i]!, raster.pixels[i + 1]!, raster.pixels[i + 2]!)) count++;
  return count;
}

/** The fonts a PDF embeds, by name without the subset prefix (pdffonts: `ABCDEF+NotoSansKR-Regular` is `NotoSansKR-Regular`). */
export function pdfFonts(bytes: Buffer): Promise<string[]> {
  return withFile(bytes, async (file) => {
    const { stdout } = await run('pdffonts', [file]);
    return stdout
      .split('\n')
      .slice(2)
      .map((line) => line.split(/\s+/)[0]!)
      .filter((name) => name !== '')
      .map((name) => name.replace(/^[A-Z]{6}\+/, ''));
  });
}

export interface WordBox {
  /** 1-based page. */
  page: number;
  text: string;
  /** PDF points from the page's top-left corner. */
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

/** Every word pdftotext finds, with its box (pdftotext -bbox), in reading order. */
export function wordBoxes(bytes: Buffer): Promise<WordBox[]> {
  return withFile(bytes, async (file) => {
    const { stdout } = await run('pdftotext', ['-bbox', '-enc', 'UTF-8', file, '-'], { maxBuffer: 64 * 1024 * 1024 });
    const words: WordBox[] = [];
    let page = 0;
    for (const line of stdout.split('\n')) {
      if (line.includes('<page ')) page++;
      const found = line.match(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*)<\/word>/);
      if (!found) continue;
      const text = found[5]!.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
      words.push({ page, text, xMin: Number(found[1]), yMin: Number(found[2]), xMax: Number(found[3]), yMax: Number(found[4]) });
    }
    return words;
  });
}
