// Test support: reads the tables of the spec's markdown so the tests compare the package with
// the spec itself rather than with a second hand-typed copy of it.

export interface MarkdownTable {
  /** Text of the nearest heading above the table, without the leading #s. */
  readonly heading: string;
  /** The last paragraph line between that heading and the table ('' if none). */
  readonly lead: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

export function parseTables(markdown: string): MarkdownTable[] {
  const tables: MarkdownTable[] = [];
  const lines = markdown.split(/\r?\n/);
  let heading = '';
  let lead = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.startsWith('#')) {
      heading = line.replace(/^#+\s*/, '');
      lead = '';
      continue;
    }
    const isTableStart = line.startsWith('|') && /^\|(\s*:?-+:?\s*\|)+$/.test(lines[i + 1]?.trim() ?? '');
    if (isTableStart) {
      const header = cells(line);
      const rows: string[][] = [];
      i += 2;
      while (i < lines.length && lines[i].trim().startsWith('|')) {
        rows.push(cells(lines[i].trim()));
        i++;
      }
      i--;
      tables.push({ heading, lead, header, rows });
      lead = '';
      continue;
    }
    if (line !== '') lead = line;
  }
  return tables;
}

function cells(line: string): string[] {
  return line
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim());
}

/** The values written in backticks in a cell or sentence, in order. */
export function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]*)`/g)].map((match) => match[1]);
}

/** Parses a legend such as "Y=31536000, M=2592000" into a map. */
export function parseLegend(text: string): Map<string, string> {
  return new Map(
    [...text.matchAll(/([A-Za-z]+)=([A-Za-z0-9_]+)/g)].map((match) => [match[1], match[2]] as const),
  );
}

/** The one line of the spec containing `marker`; fails loudly if absent or repeated. */
export function lineContaining(markdown: string, marker: string): string {
  const found = markdown.split(/\r?\n/).filter((line) => line.includes(marker));
  if (found.length !== 1) throw new Error(`expected one spec line containing "${marker}", found ${found.length}`);
  return found[0];
}
