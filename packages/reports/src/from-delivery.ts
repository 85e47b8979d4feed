// A delivery (its buy box and ranked leads) and the property page of each lead, read into the
// delivery report's model.

import type { discoveryv1 } from '@landscreen/proto';
import { formatRule, formatRuleValue } from './field-labels.js';
import { formatDate, formatValue, NONE, shortReference } from './format.js';
import { jsonOf } from './messages.js';
import type { BuyBoxSummary, DeliveryReport, SiteReport } from './model.js';

export interface DeliveryInput {
  id: string;
  createdAt: string | null;
  note?: string | null;
  market?: string | null;
  buyBox: { name: string; specHash?: string; appliedSpec: discoveryv1.BuyBoxSpec | undefined } | null;
}

export interface DeliveryLeadInput {
  rank: number;
  verdict: string;
  score: number;
  /** The lead's site report, made from its property page (siteReportFromPropertyPage). */
  report: SiteReport;
  /** The spec hash of the screening the property page shows; another than the delivery's: see below. */
  screenSpecHash?: string | null;
}

/** The rules of a canonical spec in words: "must: Acres ≥ 50 acres", "preferred (weight 2): Slope ≤ 5°". */
export function rulesInWords(spec: discoveryv1.BuyBoxSpec | undefined): string[] {
  const must = (spec?.must ?? []).map((rule) => `must: ${formatRule({ field: rule.field, op: rule.op, value: jsonOf(rule.value) })}${rule.unknown === 'review' ? ' (unknown: review)' : ''}`);
  const preferred = (spec?.preferred ?? []).map((rule) => {
    // D41: a graded preference says where it has fallen to nothing.
    const grade = rule.grade ? `, falling to 0 at ${formatRuleValue(rule.field, rule.grade.zeroAt)}` : '';
    return `preferred (weight ${formatValue(rule.weight)}): ${formatRule({ field: rule.field, op: rule.op, value: jsonOf(rule.value) })}${grade}`;
  });
  return [...must, ...preferred];
}

export function deliveryReportFrom(delivery: DeliveryInput, leads: DeliveryLeadInput[], generatedAt: Date): DeliveryReport {
  const spec = delivery.buyBox?.appliedSpec;
  const cutoffs = spec?.verdictCutoffs;
  const buyBox: BuyBoxSummary | null = delivery.buyBox
    ? {
        name: delivery.buyBox.name,
        rules: rulesInWords(delivery.buyBox.appliedSpec),
        market: delivery.market ?? spec?.markets[0] ?? null,
        cutoffs: cutoffs ? { pursue: cutoffs.pursue, monitor: cutoffs.monitor } : null,
      }
    : null;
  const ordered = [...leads].sort((a, b) => a.rank - b.rank);
  return {
    title: delivery.buyBox ? `Leads for “${delivery.buyBox.name}”` : 'Lead delivery',
    reference: shortReference(delivery.id),
    createdAt: delivery.createdAt,
    note: delivery.note ?? null,
    buyBox,
    leads: ordered.map(({ report, verdict, score, screenSpecHash }) => {
      // The delivery's own verdict and score head the page. The property page holds the evidence
      // of the property's latest screening; when that was another buy box, its table is not this
      // delivery's and is left out rather than shown under the wrong name.
      const sameScreen = !delivery.buyBox?.specHash || !screenSpecHash || screenSpecHash === delivery.buyBox.specHash;
      const base = report.screen;
      return {
        ...report,
        screen: {
          buyBox: delivery.buyBox?.name ?? base?.buyBox ?? NONE,
          verdict,
          score,
          eligible: sameScreen ? (base?.eligible ?? null) : null,
          source: base?.source ?? null,
          screenedAt: sameScreen ? (base?.screenedAt ?? delivery.createdAt) : delivery.createdAt,
          vintageId: base?.vintageId ?? null,
          evidence: sameScreen ? (base?.evidence ?? []) : [],
          evidenceNote: sameScreen ? undefined : `The property was screened again later against “${base?.buyBox}”; its site report shows that screening.`,
        },
      };
    }),
    generatedAt,
  };
}

export const deliveryFileName = (delivery: { id: string; createdAt: string | null }) => `delivery-${formatDate(delivery.createdAt)}-${delivery.id.slice(0, 8)}.pdf`;
