/**
 * Anything that stops a layer import: an unknown source, a bad --map, a bad file or feature
 * (with its position). The message is complete as it is, for the CLI to print; nothing of the
 * import is left behind when it is thrown.
 */
export class LayerImportError extends Error {
  override readonly name = 'LayerImportError';
}
