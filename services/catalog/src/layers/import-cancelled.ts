import { LayerImportError } from './layer-import-error.js';

/** The caller went away (Ctrl-C, a killed CLI, a closed connection): the import rolls back. */
export class ImportCancelledError extends LayerImportError {
  constructor() {
    super('the import was cancelled: nothing of it was stored');
  }
}
