import { BUILTIN_PROVIDERS } from './builtin/index.js';
import { httpProvider } from './http-provider.js';
import { ProviderFailure, type StepProvider } from './provider.js';

/**
 * The provider of each step: the HTTP provider configured for it (WORKER_PROVIDERS), else the
 * built-in one. A step with neither fails for good (`no_provider`): retrying cannot help.
 */
export function providerRegistry(providerUrls: Record<string, string>, timeoutMs: number): (step: string) => StepProvider {
  const configured = new Map(Object.entries(providerUrls).map(([step, url]) => [step, httpProvider(url, timeoutMs)]));
  return (step) =>
    configured.get(step) ??
    BUILTIN_PROVIDERS[step] ?? {
      name: 'none',
      run: async () => {
        throw new ProviderFailure('no_provider', `no provider is configured for step "${step}"`, false);
      },
    };
}
