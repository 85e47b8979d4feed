import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { withAbsoluteFiles } from './client.js';

describe('withAbsoluteFiles', () => {
  it('resolves --file against the caller, in both spellings, and leaves every other argument alone', () => {
    const argv = ['import', 'layer', '--source', 'hifld_substations', '--file', 'layers/subs.geojson', '--name', 'file'];
    expect(withAbsoluteFiles(argv)).toEqual([...argv.slice(0, 5), path.resolve('layers/subs.geojson'), '--name', 'file']);
    expect(withAbsoluteFiles(['import', 'parcels', '--file=p.csv'])).toEqual(['import', 'parcels', `--file=${path.resolve('p.csv')}`]);
    expect(withAbsoluteFiles(['--file', '/abs/x.shp'])).toEqual(['--file', '/abs/x.shp']);
  });

  it("resolves demo's --layers-dir too", () => {
    expect(withAbsoluteFiles(['demo', '--layers-dir', 'my-layers'])).toEqual(['demo', '--layers-dir', path.resolve('my-layers')]);
    expect(withAbsoluteFiles(['demo', '--layers-dir=l'])).toEqual(['demo', `--layers-dir=${path.resolve('l')}`]);
  });
});
