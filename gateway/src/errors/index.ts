export { ApiError, notImplemented } from './api-error.js';
export { fromServiceError } from './connect-status.js';
export { installErrorHandling } from './handler.js';
