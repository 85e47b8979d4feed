import { h } from '../dom.js';
import { formatScore } from '../format.js';

export function verdictBadge(verdict: string): HTMLElement {
  return h('span', { class: `badge verdict-${verdict.toLowerCase()}`, text: verdict });
}

export function scoreText(score: number): HTMLElement {
  return h('span', { class: 'score', text: formatScore(score) });
}

export function statusPill(status: string): HTMLElement {
  return h('span', { class: `pill status-${status}`, text: status.replace(/_/g, ' ') });
}
