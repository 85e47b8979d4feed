// Errors of building a layer index or asking the engine for something it cannot answer. They
// carry what a caller needs to report (the feature's position, the unknown field) without text
// parsing; the catalog service maps them to its Connect codes.

export class LayerBuildError extends Error {
  override readonly name = 'LayerBuildError';
  constructor(
    message: string,
    /** 1-based position of the offending feature in its file, or null for the layer as a whole. */
    readonly position: number | null,
  ) {
    super(message);
  }
}

export class UnknownFieldError extends Error {
  override readonly name = 'UnknownFieldError';
  constructor(readonly fields: readonly string[]) {
    super(`unknown catalog fields: ${fields.join(', ')}`);
  }
}
