export { createGateway, type GatewayServerOptions } from './server.js';
export { createServiceClients, type ServiceClients } from './clients.js';
export { ROUTES, type GatewayDeps, type RouteDef } from './routes/index.js';
export { buildOpenApiDocument, API_VERSION } from './openapi/document.js';
export { GATEWAY_PAGES } from './openapi/pages.js';
