import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { pipelinev1 } from '@landscreen/proto';
import { checkRow } from './rows.js';

const row = (fields: Partial<Pick<pipelinev1.ImportRow, 'ref' | 'apn' | 'address' | 'lat' | 'lon'>>) => checkRow(create(pipelinev1.ImportRowSchema, fields));

describe('checkRow (D30: a bad row is reported in its place)', () => {
  it('keeps what a row can be resolved by', () => {
    expect(row({ apn: 'R-1', address: '1 Main St', lat: 30.1, lon: -97.5 })).toEqual({ apn: 'R-1', address: '1 Main St', point: { lat: 30.1, lon: -97.5 } });
    expect(row({ address: '1 Main St' })).toEqual({ address: '1 Main St' });
    expect(row({ lat: -90, lon: 180 })).toEqual({ point: { lat: -90, lon: 180 } });
  });

  it('treats blank cells as absent', () => {
    expect(row({ apn: '   ', address: '' })).toEqual({ invalid: 'The row has no apn, address or lat/lon to resolve it by.' });
    expect(row({ apn: ' ', address: '2 Oak Ave' })).toEqual({ address: '2 Oak Ave' });
  });

  it('reports a half point, coordinates out of range and over-long cells', () => {
    expect(row({ lat: 30 })).toEqual({ invalid: 'lat is given without lon.' });
    expect(row({ lon: -97 })).toEqual({ invalid: 'lon is given without lat.' });
    expect(row({ lat: 90.0001, lon: 0 })).toEqual({ invalid: 'lat 90.0001 is out of range (-90 to 90).' });
    expect(row({ lat: 0, lon: -180.5 })).toEqual({ invalid: 'lon -180.5 is out of range (-180 to 180).' });
    expect(row({ lat: Number.NaN, lon: 0 })).toMatchObject({ invalid: expect.stringContaining('out of range') });
    expect(row({ apn: 'x'.repeat(256) })).toEqual({ invalid: 'apn is longer than 255 characters.' });
    expect(row({ address: 'x'.repeat(501) })).toEqual({ invalid: 'address is longer than 500 characters.' });
    expect(row({ apn: 'x'.repeat(255), address: 'y'.repeat(500) })).toEqual({ apn: 'x'.repeat(255), address: 'y'.repeat(500) });
  });
});
