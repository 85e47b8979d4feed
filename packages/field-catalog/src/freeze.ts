// The catalog and price list are shared, process-wide constants handed straight to response
// serialisers; freezing them means no caller can mutate what every other request sees.

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
