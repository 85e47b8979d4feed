/** A FIFO lock: `acquire()` resolves with a release function once every earlier holder released. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  /** The holder and everyone queued behind it: what the pool gauges show of PGlite. */
  private pending = 0;

  /** Callers queued behind the current holder. */
  get waiting(): number {
    return Math.max(0, this.pending - 1);
  }

  get held(): boolean {
    return this.pending > 0;
  }

  acquire(): Promise<() => void> {
    this.pending++;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let done = false;
    const releaseOnce = () => {
      if (done) return;
      done = true;
      this.pending--;
      release();
    };
    const granted = this.tail.then(() => releaseOnce);
    this.tail = this.tail.then(() => released);
    return granted;
  }
}
