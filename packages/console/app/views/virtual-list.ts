import { h } from '../dom.js';

/**
 * A list of any length that keeps only the rows in sight (and a few either side) in the page:
 * rows of one height, placed by their index in a spacer as tall as the whole list, so 100,000
 * rows cost what 30 do.
 */
export class VirtualList<T> {
  readonly element: HTMLDivElement;
  private readonly spacer: HTMLDivElement;
  private items: readonly T[] = [];
  private readonly rendered = new Map<number, HTMLElement>();
  private nearEnd: (() => void) | undefined;

  constructor(
    label: string,
    private readonly rowHeight: number,
    private readonly renderRow: (item: T, index: number) => HTMLElement,
  ) {
    this.spacer = h('div', { class: 'vlist-spacer' });
    this.element = h('div', { class: 'vlist', attrs: { role: 'group', 'aria-label': label, tabindex: 0 } }, this.spacer);
    this.element.addEventListener('scroll', () => this.draw(), { passive: true });
    new ResizeObserver(() => this.draw()).observe(this.element);
  }

  /** Called when the rows in sight come within a screen of the end (to load the next page). */
  onNearEnd(listener: () => void): void {
    this.nearEnd = listener;
  }

  setItems(items: readonly T[], keepScroll = false): void {
    this.items = items;
    for (const row of this.rendered.values()) row.remove();
    this.rendered.clear();
    if (!keepScroll) this.element.scrollTop = 0;
    this.spacer.style.height = `${items.length * this.rowHeight}px`;
    this.draw();
  }

  get length(): number {
    return this.items.length;
  }

  /** The row element of an index, if it is in the page now. */
  rowAt(index: number): HTMLElement | undefined {
    return this.rendered.get(index);
  }

  scrollToIndex(index: number): void {
    const top = index * this.rowHeight;
    if (top < this.element.scrollTop || top + this.rowHeight > this.element.scrollTop + this.element.clientHeight) this.element.scrollTop = top - this.element.clientHeight / 3;
  }

  private draw(): void {
    const height = this.element.clientHeight || 600;
    const first = Math.max(0, Math.floor(this.element.scrollTop / this.rowHeight) - 5);
    const last = Math.min(this.items.length - 1, Math.ceil((this.element.scrollTop + height) / this.rowHeight) + 5);
    for (const [index, row] of this.rendered) {
      if (index >= first && index <= last) continue;
      row.remove();
      this.rendered.delete(index);
    }
    for (let index = first; index <= last; index++) {
      if (this.rendered.has(index)) continue;
      const row = this.renderRow(this.items[index]!, index);
      row.style.top = `${index * this.rowHeight}px`;
      row.style.height = `${this.rowHeight}px`;
      this.spacer.append(row);
      this.rendered.set(index, row);
    }
    if (this.nearEnd && last >= this.items.length - Math.ceil(height / this.rowHeight)) this.nearEnd();
  }
}
