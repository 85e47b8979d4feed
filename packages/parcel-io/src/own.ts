// Property names come from files we do not control; a column or property called "__proto__"
// must become an ordinary own property, not replace the prototype of the object it lands in.

export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    target[key] = value;
  }
}
