import { isApiError } from './api-client.js';
import { sleep } from './sleep.js';

/**
 * Calls the API again after a transport error or a 5xx (the gateway restarting, a blip), up to
 * `attempts` times. Used for the calls that carry a provider's result: losing one would mean
 * paying the provider again. Any other answer (a 4xx) is final and thrown at once.
 */
export async function retryCall<T>(call: () => Promise<T>, signal: AbortSignal, attempts = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      const transient = !isApiError(error) || error.status >= 500;
      if (!transient || attempt >= attempts || signal.aborted) throw error;
      await sleep(200 * 2 ** (attempt - 1), signal);
    }
  }
}
