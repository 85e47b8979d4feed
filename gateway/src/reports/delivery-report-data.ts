import type { CallOptions } from '@connectrpc/connect';
import { deliveryReportFrom, siteReportFromReportProperty, type DeliveryLeadInput, type DeliveryReport } from '@landscreen/reports';
import { pipelinev1 } from '@landscreen/proto';
import { create } from '@bufbuild/protobuf';
import type { ServiceClients } from '../clients.js';
import { gridAt, parcelOfVintage } from './site-report-data.js';

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
  const properties = new Map(pagesAnswer.properties.map((property) => [property.id, property]));
  const leads = await Promise.all(
    delivery.leads.map(async (lead, index): Promise<DeliveryLeadInput> => {
      // A lead's property always exists (the delivery made it); it is only missing if it was removed.
      const property =
        properties.get(lead.propertyId) ??
        create(pipelinev1.ReportPropertySchema, { id: lead.propertyId, parcelKey: lead.parcelKey, apn: lead.apn, address: lead.address, acres: lead.acres, lat: lead.lat, lon: lead.lon, market: delivery.market });
      const parcel = property.geometryJson.length === 0 ? await parcelOfVintage(clients, { vintageId: property.vintageId || delivery.vintageId, parcelKey: property.parcelKey }, options) : undefined;
      return { rank: lead.rank, verdict: lead.verdict, score: lead.score, report: siteReportFromReportProperty(property, grids[index]!, generatedAt, parcel), screenSpecHash: property.screen?.specHash ?? null };
    }),
  );
  return deliveryReportFrom(
    {
      id: delivery.id,
      createdAt: delivery.createdAt,
      note: delivery.leadRequest?.note ?? null,
      market: delivery.market,
      buyBox: buyBox ? { name: buyBox.name, specHash: buyBox.specHash, appliedSpec: buyBox.appliedSpec } : null,
    },
    leads,
    generatedAt,
  );
}
