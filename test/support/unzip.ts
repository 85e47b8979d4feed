import yauzl from 'yauzl';

/** The files of a zip archive by name, read in memory. */
export async function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const archive = await new Promise<yauzl.ZipFile>((resolve, reject) => yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file!))));
  await new Promise<void>((resolve, reject) => {
    archive.on('entry', (entry: yauzl.Entry) =>
      archive.openReadStream(entry, async (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        for await (const chunk of stream!) chunks.push(chunk as Buffer);
        files.set(entry.fileName, Buffer.concat(chunks));
        archive.readEntry();
      }),
    );
    archive.on('end', resolve);
    archive.on('error', reject);
    archive.readEntry();
  });
  return files;
}
