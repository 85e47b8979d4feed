// Property names often come from input we do not control (a file's columns, a request body). An
// assignment `target[key] = value` with the key "__proto__" does not make a property: it replaces
// the target's prototype, so the value vanishes and its properties show through as inherited
// ones (a validated body could then "have" a field nobody validated). This makes it an ordinary
// own property, as JSON.parse does.

export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
