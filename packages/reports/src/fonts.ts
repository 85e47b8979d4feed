import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';

// DejaVu Sans covers Latin, Greek, Cyrillic and more (pdfkit's built-in Helvetica prints none of
// the last two). Chinese, Japanese kanji and kana it lacks: those texts are set in Noto Sans CJK
// (Simplified Chinese, the GB 2312 set; @embedpdf/fonts-sc), loaded only when a report first needs
// it. Each file is read and parsed once per process: every document embeds a subset made from the
// same parsed font, whose glyph and layout caches stay warm between requests. Licences: Bitstream
// Vera / DejaVu and the SIL Open Font License 1.1 both allow redistribution and embedding.
const require = createRequire(import.meta.url);

function load(path: string): fontkit.Font {
  const font = fontkit.create(readFileSync(path));
  if (!('layout' in font)) throw new Error(`${path} is a font collection, not a font`);
  return font;
}

export interface ReportFonts {
  regular: fontkit.Font;
  bold: fontkit.Font;
}

let fonts: ReportFonts | undefined;
let fallback: ReportFonts | undefined;

/** The report fonts, loaded on first use. */
export function reportFonts(): ReportFonts {
  fonts ??= {
    regular: load(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: load(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}

/** The fallback fonts for the scripts DejaVu lacks (CJK), loaded on first use. */
export function fallbackFonts(): ReportFonts {
  // The package exports only its entry module; its fonts lie in fonts/ beside dist/.
  const fontsDir = path.join(path.dirname(require.resolve('@embedpdf/fonts-sc')), '..', 'fonts');
  fallback ??= {
    regular: load(path.join(fontsDir, 'NotoSansHans-Regular.otf')),
    bold: load(path.join(fontsDir, 'NotoSansHans-Bold.otf')),
  };
  return fallback;
}

/** Code points the primary fonts cover without a look-up: Latin, Greek, Cyrillic and punctuation. */
const COMMON = /^[\u0000-\u052f\u2000-\u2bff\u00a0-\u00ff]*$/;
const covered = new Map<number, boolean>();

/**
 * Whether a text needs the fallback font: it holds a character DejaVu has no glyph for and the
 * fallback has. A text of characters neither has stays in DejaVu (its missing-glyph box shows
 * that something is there, rather than dropping it).
 */
export function needsFallback(text: string): boolean {
  if (COMMON.test(text)) return false;
  const primary = reportFonts().regular;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let known = covered.get(code);
    if (known === undefined) {
      known = primary.hasGlyphForCodePoint(code) || !fallbackFonts().regular.hasGlyphForCodePoint(code);
      if (covered.size < 100_000) covered.set(code, known);
    }
    if (!known) return true;
  }
  return false;
}
