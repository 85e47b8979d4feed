import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as fontkit from 'fontkit';

// DejaVu Sans covers Latin, Greek, Cyrillic, Arabic, Hebrew and more (pdfkit's built-in Helvetica
// prints none of the last four). The scripts it lacks are set in a Noto Sans of Google Fonts'
// static TrueType builds, as npm ships them (@expo-google-fonts/*): Chinese with Japanese kana and
// kanji (Noto Sans SC), Hangul (Noto Sans KR), Thai and Devanagari. TrueType (glyf) outlines, not
// CFF: pdfkit subsets CFF by copying its global subroutines, which made every CJK report ~20 ms
// of CPU and ~45 KB slower and larger (docs/decisions.md). Each file is read and parsed once per
// process, only when a report first needs it: every document embeds a subset made from the same
// parsed font, whose glyph and layout caches stay warm between requests. Licences: Bitstream Vera
// / DejaVu and the SIL Open Font License 1.1 both allow redistribution and embedding.
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

/** A font for scripts DejaVu lacks: its name in the document and where its two weights lie. */
export interface FallbackFont {
  /** The name a document registers it under (its bold: name + "-Bold"). */
  name: string;
  regular: () => string;
  bold: () => string;
}

/** In order of preference: a text is set in the first that has every character DejaVu lacks. */
export const FALLBACK_FONTS: readonly FallbackFont[] = [
  {
    name: 'NotoSansSC',
    regular: () => require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
  },
  {
    name: 'NotoSansKR',
    regular: () => require.resolve('@expo-google-fonts/noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-kr/700Bold/NotoSansKR_700Bold.ttf'),
  },
  {
    name: 'NotoSansThai',
    regular: () => require.resolve('@expo-google-fonts/noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-thai/700Bold/NotoSansThai_700Bold.ttf'),
  },
  {
    name: 'NotoSansDevanagari',
    regular: () => require.resolve('@expo-google-fonts/noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf'),
    bold: () => require.resolve('@expo-google-fonts/noto-sans-devanagari/700Bold/NotoSansDevanagari_700Bold.ttf'),
  },
];

const loaded = new Map<FallbackFont['regular'], fontkit.Font>();

/** A fallback font's parsed file (regular or bold), loaded on first use. */
export function fallbackFont(font: FallbackFont, weight: 'regular' | 'bold'): fontkit.Font {
  const file = font[weight];
  let parsed = loaded.get(file);
  if (!parsed) loaded.set(file, (parsed = load(file())));
  return parsed;
}

/** Code points the primary fonts cover without a look-up: Latin, Greek, Cyrillic and punctuation. */
const COMMON = /^[\u0000-\u052f\u2000-\u2bff\u00a0-\u00ff]*$/;
/** Per code point DejaVu lacks: a bit per fallback font that has it (0: none has). */
const coverage = new Map<number, number>();
const PRIMARY = -1;

/** The fallbacks that have the code point, as bits, or PRIMARY when DejaVu has it. */
function coverageOf(code: number): number {
  let known = coverage.get(code);
  if (known === undefined) {
    if (reportFonts().regular.hasGlyphForCodePoint(code)) known = PRIMARY;
    else {
      known = 0;
      FALLBACK_FONTS.forEach((font, i) => {
        if (fallbackFont(font, 'regular').hasGlyphForCodePoint(code)) known! |= 1 << i;
      });
    }
    if (coverage.size < 100_000) coverage.set(code, known);
  }
  return known;
}

/**
 * The fallback font a text is set in, or undefined when DejaVu has all of its characters: the
 * first fallback that has every character DejaVu lacks, else the one that has the most of them.
 * A text of characters no font has stays in DejaVu (its missing-glyph box shows that something
 * is there, rather than dropping it).
 */
export function fallbackFor(text: string): FallbackFont | undefined {
  if (COMMON.test(text)) return undefined;
  let all = (1 << FALLBACK_FONTS.length) - 1;
  const counts = new Array<number>(FALLBACK_FONTS.length).fill(0);
  let missing = 0;
  for (const char of text) {
    const bits = coverageOf(char.codePointAt(0)!);
    if (bits === PRIMARY) continue;
    missing++;
    all &= bits;
    for (let i = 0; i < counts.length; i++) if (bits & (1 << i)) counts[i]!++;
  }
  if (missing === 0) return undefined;
  for (let i = 0; i < FALLBACK_FONTS.length; i++) if (all & (1 << i)) return FALLBACK_FONTS[i];
  const best = counts.indexOf(Math.max(...counts));
  return counts[best]! > 0 ? FALLBACK_FONTS[best] : undefined;
}
