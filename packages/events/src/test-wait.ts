/**
 * Test helpers: waiting on a condition, never on the clock. A wait has no deadline of its own:
 * on a machine shared with other test runs anything may take many times longer than on a quiet
 * one, so only the test's (or hook's) timeout bounds it, and a broken bus fails the test there.
 * What the test was waiting for is in the error of a wait that its test's end interrupted.
 */
export async function waitFor(predicate: () => boolean | Promise<boolean>, what = 'condition'): Promise<void> {
  for (;;) {
    try {
      if (await predicate()) return;
    } catch (error) {
      throw new Error(`waiting for ${what}: ${(error as Error).message}`, { cause: error });
    }
    await sleep(10);
  }
}

/** A pause: for polling intervals and for what a test must let happen, never to wait for readiness. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
