export type * from './model.js';
export { renderSiteReport, writeSitePages } from './site-report.js';
export { renderDeliveryReport } from './delivery-report.js';
export { siteReportFromProperty, siteReportFromReportProperty, storedGeometry, ruleEvidence, type GridInput, type ParcelFallback } from './from-messages.js';
export { fileNamePart, shortReference } from './format.js';
export { fieldLabel, formatFact, formatRule } from './field-labels.js';
export { reportFonts } from './fonts.js';
export { fitText, MAX_TEXT_LENGTH } from './fit-text.js';
export { deliveryReportFrom, deliveryFileName, rulesInWords, type DeliveryInput, type DeliveryLeadInput } from './from-delivery.js';
