/**
 * A fault injector for startTestStack's `faults`: throws at one named point of a transaction
 * while armed, so a test can show that a crash there leaves nothing half-written.
 */
export function faultSwitch() {
  let armed: string | undefined;
  return {
    faults(point: string): void {
      if (point === armed) throw new Error(`injected fault at ${point}`);
    },
    /** Runs `action` with the fault at `point` armed, and disarms it however `action` ends. */
    async armedAt<T>(point: string, action: () => Promise<T>): Promise<T> {
      armed = point;
      try {
        return await action();
      } finally {
        armed = undefined;
      }
    },
  };
}
