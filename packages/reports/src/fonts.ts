import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

// DejaVu Sans covers Latin, Greek and Cyrillic (pdfkit's built-in Helvetica prints none of the
// last two). Each TrueType file is read and parsed once per process: every document embeds a
// subset made from the same parsed font, whose glyph and layout caches stay warm between
// requests. The fonts' licence (Bitstream Vera / DejaVu) allows redistribution.
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

/** The report fonts, loaded on first use. */
export function reportFonts(): ReportFonts {
  fonts ??= {
    regular: load(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')),
    bold: load(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf')),
  };
  return fonts;
}
