import type { CallOptions } from '@connectrpc/connect';
import { deliveryReportFrom, siteReportFromPropertyPage, type DeliveryLeadInput, type DeliveryReport } from '@landscreen/reports';
import * as discoveryjson from '@landscreen/discovery-json';
import type { ServiceClients } from '../clients.js';
import { reportPropertyPage } from '../views/report-property.js';
import { gridAt, withParcelGeometry } from './site-report-data.js';

/**
 * D30: a delivery (tenant-scoped: another tenant's is 404 at GetDelivery) with, for every lead,
 * what its page prints: its property reduced to the report's parts (one GetReportProperties call,
 * the screening of the delivery's own buy box) and its grid features (one NearestGridFeatures
 * call for all leads).
 */
export async function deliveryReport(clients: ServiceClients, deliveryId: string, options: CallOptions, generatedAt: Date): Promise<DeliveryReport> {
  const { delivery } = await clients.pipeline.getDelivery({ deliveryId }, options);
  if (!delivery) throw new Error('GetDelivery answered no delivery');
  const buyBox = delivery.buyBox;
  const [pagesAnswer, grids] = await Promise.all([
    clients.pipeline.getReportProperties({ propertyIds: delivery.leads.map((lead) => lead.propertyId), specHash: buyBox?.specHash }, options),
    gridAt(clients, delivery.leads.map((lead) => ({ lat: lead.lat, lon: lead.lon })), options),
  ]);
  const pages = new Map<string, Record<string, any>>(pagesAnswer.properties.map((property) => [property.id, reportPropertyPage(property)]));
  const leads = await Promise.all(
    delivery.leads.map(async (lead, index): Promise<DeliveryLeadInput> => {
      // A lead's property always exists (the delivery made it); its page is only missing if it was removed.
      const page = pages.get(lead.propertyId) ?? { property: { id: lead.propertyId, parcel_key: lead.parcelKey, apn: lead.apn, address: lead.address, acres: lead.acres, lat: lead.lat, lon: lead.lon } };
      await withParcelGeometry(clients, page, options);
      return { rank: lead.rank, verdict: lead.verdict, score: lead.score, report: siteReportFromPropertyPage(page, grids[index]!, generatedAt), screenSpecHash: page.deep_screen?.spec_hash ?? null };
    }),
  );
  return deliveryReportFrom(
    {
      id: delivery.id,
      createdAt: delivery.createdAt,
      note: delivery.leadRequest?.note ?? null,
      market: delivery.market,
      buyBox: buyBox ? { name: buyBox.name, specHash: buyBox.specHash, appliedSpec: discoveryjson.buyBoxSpecValue(buyBox.appliedSpec) } : null,
    },
    leads,
    generatedAt,
  );
}
