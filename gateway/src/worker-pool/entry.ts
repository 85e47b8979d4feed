/**
 * The entry file of a worker thread that sits beside `base` (the caller's `import.meta.url`):
 * `<name>.js` when the caller runs as compiled JavaScript, or, when it runs from its TypeScript
 * source (vitest, tsx), the `<name>.mjs` beside it, which registers tsx's loader (a worker thread
 * does not inherit it) and then imports `<name>.ts`.
 */
export function workerEntry(base: string, name: string): URL {
  return new URL(base.endsWith('.ts') ? `./${name}.mjs` : `./${name}.js`, base);
}
