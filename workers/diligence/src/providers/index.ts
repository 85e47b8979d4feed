export { providerRegistry } from './registry.js';
export { httpProvider } from './http-provider.js';
export { BUILTIN_PROVIDERS, BUILTIN_PROVIDER } from './builtin/index.js';
export { ProviderFailure, type StepInput, type StepProvider } from './provider.js';
