import { listVersions, catalogDb } from '@landscreen/catalog-service';
import type { CommandImplementation } from './command.js';

export const layersCommand: CommandImplementation = {
  async run({ database, out }) {
    const versions = await listVersions(catalogDb(database.db));
    if (versions.length === 0) {
      out('no layers loaded (landscreen import layer --source SOURCE --file PATH)');
      return 0;
    }
    const seen = new Set<string>();
    const rows = versions.map((version) => {
      const current = !seen.has(version.source);
      seen.add(version.source);
      const count = Number(version.feature_count).toLocaleString('en-US');
      return [
        version.source,
        version.id,
        version.name,
        `${count} ${version.geometry === 'grid' ? 'cells' : 'features'}`,
        version.bbox === null ? '-' : version.bbox.map((value) => value.toFixed(4)).join(','),
        new Date(version.completed_at).toISOString(),
        current ? 'current' : '',
      ];
    });
    for (const line of table(['SOURCE', 'VERSION', 'NAME', 'FEATURES/CELLS', 'BBOX', 'LOADED AT', 'CURRENT'], rows)) out(line);
    return 0;
  },
};

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}
