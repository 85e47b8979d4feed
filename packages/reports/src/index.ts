export type * from './model.js';
export { renderSiteReport, writeSitePages } from './site-report.js';
export { renderDeliveryReport } from './delivery-report.js';
export { siteReportFromPropertyPage, ruleEvidence, type GridInput } from './from-property-page.js';
export { fileNamePart, formatRule } from './format.js';
export { reportFonts } from './fonts.js';
export { fitText, MAX_TEXT_LENGTH } from './fit-text.js';
export { deliveryReportFrom, deliveryFileName, rulesInWords, type DeliveryInput, type DeliveryLeadInput } from './from-delivery.js';
