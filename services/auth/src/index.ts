export { createAuthService, type AuthServiceOptions } from './service.js';
export { migrations } from './migrations/index.js';
export { SCHEMA, ROLES, authDb, type AuthDb, type AuthTransaction, type Role } from './schema.js';
export { createTenant, setMembership, findTenant, AuthInputError } from './operations/tenants.js';
export { createServiceToken } from './operations/service-tokens.js';
export { limitsFrom, type AuthLimits } from './context.js';
