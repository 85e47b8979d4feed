import { h } from '../dom.js';
import type { LegendEntry } from '../map/layer-styles.js';

/** Swatches with their labels. */
export function legend(entries: readonly LegendEntry[]): HTMLElement {
  return h(
    'ul',
    { class: 'legend' },
    entries.map((entry) => h('li', {}, h('span', { class: `swatch swatch-${entry.shape}`, attrs: { style: `--swatch: ${entry.colour}`, 'aria-hidden': 'true' } }), entry.label)),
  );
}
