export { startTestStack, DATABASE_MODES, type DatabaseMode, type TestStack, type TestStackOptions } from './stack.js';
export { httpClient, type HttpClient, type HttpResponse, type RequestOptions } from './http.js';
export { checkFetchResponse, gatewayContract, ResponseContract, ResponseContractError, type Exchange } from './response-contract.js';
export { createTestPostgres, TEST_DATABASE_URL, withAdminClient, type TestDatabase } from './postgres.js';
export { createTestPGlite, preparePGliteTemplate } from './pglite.js';
export { prepareTemplateDatabase } from './template.js';
export { loadMarket, entitleTenant, type TestFeature } from './markets.js';
export { faultSwitch } from './faults.js';
export { startTcpProxy, type ProxyMode, type TcpProxy } from './tcp-proxy.js';
