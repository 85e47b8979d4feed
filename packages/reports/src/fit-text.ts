// Every text a report prints goes through fitText() (theme.ts installs it on the document's
// text() and heightOfString()). pdfkit breaks a word that does not fit its line inside the word,
// but it measures the rest of the word again for every line it breaks off: a 20,000-character
// word took 18 s and a 200,000-character one did not finish in two minutes. Cut at
// MAX_TEXT_LENGTH, the longest word costs a few milliseconds, and no field can push a report
// to hundreds of pages. docs/decisions.md, "PDF rendering in a worker pool".

/** The most characters a report prints of any one text (a fact, a contact line, a summary, a note). */
export const MAX_TEXT_LENGTH = 1_000;

/** Marks where a text was cut. */
export const ELLIPSIS = '…';

/** `text` as printed: at most MAX_TEXT_LENGTH characters, an over-long one cut with an ellipsis (never inside a surrogate pair). */
export function fitText(text: string, max = MAX_TEXT_LENGTH): string {
  if (text.length <= max) return text;
  let end = max - ELLIPSIS.length;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end) + ELLIPSIS;
}
