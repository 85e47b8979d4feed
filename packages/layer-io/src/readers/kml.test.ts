import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLayer } from '../read-layer.js';
import { collect, makeTempDir, rejection, type TempDir } from '../testing/temp-dir.js';
import { writeZip } from '../testing/zip-writer.js';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

const kml = (placemarks: string) => `<?xml version="1.0" encoding="UTF-8"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document>${placemarks}</Document></kml>`;
const point = (name: string, lon: number, lat: number) => `<Placemark><name>${name}</name><Point><coordinates>${lon},${lat}</coordinates></Point></Placemark>`;

describe('KML and KMZ', () => {
  it('makes a MultiGeometry of points one MultiPoint, and refuses one that mixes kinds', async () => {
    const multi = await dir.write(
      'multi.kml',
      kml('<Placemark><name>pair</name><MultiGeometry><Point><coordinates>-97,30</coordinates></Point><Point><coordinates>-96,31</coordinates></Point></MultiGeometry></Placemark>'),
    );
    const [feature] = await collect(readLayer(multi));
    expect(feature.geometry).toEqual({ type: 'MultiPoint', coordinates: [[-97, 30], [-96, 31]] });
    const mixed = await dir.write(
      'mixed.kml',
      kml('<Placemark><MultiGeometry><Point><coordinates>-97,30</coordinates></Point><LineString><coordinates>-97,30 -96,31</coordinates></LineString></MultiGeometry></Placemark>'),
    );
    expect(((await rejection(() => collect(readLayer(mixed)))) as Error).message).toBe(
      `${mixed}: feature 1: a MultiGeometry mixes Point, LineString: split it into one placemark per kind`,
    );
  });

  it('follows a KMZ document\'s NetworkLinks into the archive, each document once', async () => {
    const kmz = await dir.write(
      'linked.kmz',
      writeZip([
        { name: 'doc.kml', data: Buffer.from(kml('<NetworkLink><Link><href>layers/a.kml</href></Link></NetworkLink><NetworkLink><Link><href>layers/a.kml</href></Link></NetworkLink>')) },
        { name: 'layers/a.kml', data: Buffer.from(kml(point('A', -97, 30) + point('B', -96, 31))) },
      ]),
    );
    const features = await collect(readLayer(kmz));
    expect(features.map((feature) => [feature.properties.name, feature.geometry.coordinates])).toEqual([
      ['A', [-97, 30]],
      ['B', [-96, 31]],
    ]);
  });

  it('refuses text that is not well-formed XML', async () => {
    const broken = await dir.write('broken.kml', '<?xml version="1.0"?><kml><Document><Placemark></Document>');
    expect(((await rejection(() => collect(readLayer(broken)))) as Error).message).toMatch(/not well-formed KML/);
  });
});
