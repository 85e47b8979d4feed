/** A FIFO lock: `acquire()` resolves with a release function once every earlier holder released. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();

  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const granted = this.tail.then(() => release);
    this.tail = this.tail.then(() => released);
    return granted;
  }
}
