// Right-to-left text in pdfkit, which has no bidirectional layout: it lays a line out word by
// word in the order the characters are stored, and fontkit reverses each word of a right-to-left
// script on its own, so "محمد القاهرة" came out with its words in reading order left to right
// (the wrong way round, the space before them). Each line pdfkit has wrapped is therefore cut
// into its directional runs by the Unicode Bidirectional Algorithm (bidi-js, UAX #9: embedding
// levels, trailing whitespace reset, runs reversed from the highest level down, mirrored
// brackets), and the runs are drawn left to right in visual order, each laid out whole.

import bidiModule from 'bidi-js';

// Node loads bidi-js's CommonJS build, whose module.exports is the factory; its types describe it
// as an ES module's default export (module.exports.default under Node's rules).
const bidiFactory = bidiModule as unknown as typeof bidiModule.default;
const bidi = bidiFactory();

/** Letters of a right-to-left script (bidi classes R and AL) lie in these blocks: a line without any needs no bidi pass. */
const RIGHT_TO_LEFT = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** The scripts fontkit writes from right to left (its own list): a run it lays out in one of them, it reverses. */
const FONTKIT_RTL_SCRIPTS =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Cypriot}\p{Script=Kharoshthi}\p{Script=Phoenician}\p{Script=Nko}\p{Script=Lydian}\p{Script=Avestan}\p{Script=Imperial_Aramaic}\p{Script=Inscriptional_Pahlavi}\p{Script=Inscriptional_Parthian}\p{Script=Old_South_Arabian}\p{Script=Old_Turkic}\p{Script=Samaritan}\p{Script=Mandaic}\p{Script=Meroitic_Cursive}\p{Script=Meroitic_Hieroglyphs}\p{Script=Manichaean}\p{Script=Mende_Kikakui}\p{Script=Nabataean}\p{Script=Old_North_Arabian}\p{Script=Palmyrene}\p{Script=Psalter_Pahlavi}]/u;
/** Characters fontkit passes over when it picks a run's script (the first other character decides). */
const NO_SCRIPT = /[\p{Script=Common}\p{Script=Inherited}\p{Script=Unknown}]/u;
/** Whitespace that UAX #9's rule L1 puts back at the paragraph's level at the end of a line. */
const WHITESPACE_TYPES = new Set(['WS', 'S', 'B', 'BN', 'LRI', 'RLI', 'FSI', 'PDI']);

/** Whether fontkit lays `text` out right to left (and so reverses its glyphs). */
function fontkitReverses(text: string): boolean {
  for (const char of text) {
    if (NO_SCRIPT.test(char)) continue;
    return FONTKIT_RTL_SCRIPTS.test(char);
  }
  return false;
}

const reversed = (text: string) => [...text].reverse().join('');

/**
 * A line's directional runs from left to right, each as fontkit must be given it so that it
 * draws the run's glyphs in visual order: a right-to-left run in stored order with its brackets
 * mirrored (fontkit shapes it, then reverses it), a left-to-right run as it is. Null when the
 * line holds no right-to-left letter (drawn as pdfkit draws it).
 */
export function visualRuns(line: string): string[] | null {
  if (!RIGHT_TO_LEFT.test(line)) return null;
  const { levels, paragraphs } = bidi.getEmbeddingLevels(line);
  const paragraphLevel = paragraphs[0]?.level ?? 0;
  const at = Uint8Array.from(levels);
  for (let i = line.length - 1; i >= 0 && WHITESPACE_TYPES.has(bidi.getBidiCharTypeName(line[i]!)); i--) at[i] = paragraphLevel;
  // Runs of one level, in stored order ([start, end) into the line's UTF-16 units).
  const runs: { start: number; end: number; level: number }[] = [];
  for (let i = 0; i < line.length; i++) {
    const last = runs[runs.length - 1];
    if (last && last.level === at[i]) last.end = i + 1;
    else runs.push({ start: i, end: i + 1, level: at[i]! });
  }
  // UAX #9 L2: from the highest level down to the lowest odd one, reverse every sequence of runs at that level or above.
  const highest = Math.max(...runs.map((run) => run.level));
  const lowestOdd = Math.min(...runs.map((run) => (run.level % 2 === 1 ? run.level : Infinity)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let i = 0; i < runs.length; ) {
      if (runs[i]!.level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < runs.length && runs[j]!.level >= level) j++;
      runs.splice(i, j - i, ...runs.slice(i, j).reverse());
      i = j;
    }
  }
  return runs.flatMap(({ start, end, level }) => {
    const text = line.slice(start, end);
    if (level % 2 === 1) {
      const mirrored = [...text].map((char) => bidi.getMirroredCharacter(char) ?? char).join('');
      // Drawn reversed: fontkit reverses a run of a right-to-left script itself; a run of neutrals alone (brackets, dashes) is handed reversed.
      return [fontkitReverses(mirrored) ? mirrored : reversed(mirrored)];
    }
    // A left-to-right run is drawn as stored; a piece of it in a right-to-left script (Arabic-Indic
    // digits) would be reversed by fontkit, so it is handed reversed, as a piece of its own.
    return scriptPieces(text).map((piece) => (fontkitReverses(piece) ? reversed(piece) : piece));
  });
}

/** The text cut where it passes between right-to-left and other scripts (characters of no script stay with the piece before them). */
function scriptPieces(text: string): string[] {
  const pieces: string[] = [];
  let piece = '';
  let direction: boolean | undefined;
  for (const char of text) {
    if (!NO_SCRIPT.test(char)) {
      const rtl = FONTKIT_RTL_SCRIPTS.test(char);
      if (direction !== undefined && rtl !== direction && piece) {
        pieces.push(piece);
        piece = '';
      }
      direction = rtl;
    }
    piece += char;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

type Fragment = (text: string, x: number, y: number, options: Record<string, any>) => void;

interface PdfkitInternals {
  _fragment: Fragment;
  _font: { encode(text: string, features?: unknown): [string[], { xAdvance: number }[]] };
  _fontSize: number;
  widthOfString(text: string, options?: Record<string, any>): number;
}

/**
 * Installs the bidi pass on a document: every line pdfkit draws (its `_fragment`, the one place
 * wrapped lines pass through; pdfkit 0.20 is pinned) that holds right-to-left text is drawn as
 * its runs in visual order, each laid out whole (`features` given, so pdfkit does not cut it into
 * words), from where its alignment puts the line. Justified lines holding such text are set flush left.
 */
export function drawRightToLeft(doc: PDFKit.PDFDocument): void {
  const internals = doc as unknown as PdfkitInternals;
  const fragment = internals._fragment.bind(doc) as Fragment;
  internals._fragment = (text, x, y, options) => {
    const line = `${text}`.replace(/\n/g, '');
    const runs = visualRuns(line);
    if (!runs) return fragment(text, x, y, options);
    const features = options.features ?? [];
    const spacing = options.characterSpacing ?? 0;
    const scale = (options.horizontalScaling ?? 100) / 100;
    const widthOf = (run: string) => (internals._font.encode(run, features)[1].reduce((sum, position) => sum + position.xAdvance, 0) * internals._fontSize) / 1000;
    const lineWidth = (runs: string[]) => (runs.reduce((sum, run) => sum + widthOf(run), 0) + spacing * Math.max(0, [...runs.join('')].length - 1)) * scale;
    let left = x;
    if (options.width && options.align === 'right') left += options.lineWidth - lineWidth(visualRuns(line.replace(/\s+$/, '')) ?? runs);
    else if (options.width && options.align === 'center') left += options.lineWidth / 2 - lineWidth(runs) / 2;
    for (const run of runs) {
      fragment(run, left, y, { ...options, align: 'left', wordSpacing: 0, textWidth: undefined, wordCount: undefined, features });
      left += (widthOf(run) + spacing * [...run].length) * scale;
    }
  };
}
