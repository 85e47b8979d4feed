import { listVersions, catalogDb, storedBytesByVersion, versionSize } from '@landscreen/catalog-service';
import type { CommandImplementation } from './command.js';

export const layersCommand: CommandImplementation = {
  async run({ config, database, out }) {
    const db = catalogDb(database.db);
    const [versions, storedBytes] = await Promise.all([listVersions(db), storedBytesByVersion(db)]);
    if (versions.length === 0) {
      out('no layers loaded (landscreen import layer --source SOURCE --file PATH)');
      return 0;
    }
    const seen = new Set<string>();
    const rows = versions.map((version) => {
      const current = !seen.has(version.source);
      seen.add(version.source);
      const count = Number(version.feature_count).toLocaleString('en-US');
      const size = versionSize(version, storedBytes);
      const grid = version.geometry === 'grid';
      return [
        version.source,
        version.id,
        version.name,
        `${count} ${grid ? 'cells' : 'features'}${size.tiles > 1 ? ` in ${size.tiles} tiles` : ''}`,
        megabytes(size.storedBytes),
        size.engineBytes === null ? '-' : size.onDemand ? `${megabytes(size.engineBytes)}, on demand` : megabytes(size.engineBytes),
        version.bbox === null ? '-' : version.bbox.map((value) => value.toFixed(4)).join(','),
        new Date(version.completed_at).toISOString(),
        current ? 'current' : '',
      ];
    });
    for (const line of table(['SOURCE', 'VERSION', 'NAME', 'FEATURES/CELLS', 'STORED', 'ENGINE MEMORY', 'BBOX', 'LOADED AT', 'CURRENT'], rows)) out(line);
    if (versions.some((version) => versionSize(version, storedBytes).onDemand)) {
      out(`on demand: a grid larger than the engine holds whole is read block by block as points need it, recent blocks kept within LAYER_GRID_CACHE_MB (${config.grids.cacheMb} MB, shared by every grid)`);
    }
    return 0;
  },
};

function megabytes(bytes: number): string {
  const mb = bytes / 2 ** 20;
  return `${mb < 10 ? mb.toFixed(2) : mb.toFixed(0)} MB`;
}

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}
