/** The inquiries capability's surface: the only file (with schemas.ts) that other folders import. */
export { admitInquiry, mapInquiryValidation } from './admit.js';
export { CHECK_COST_UNIT } from './engine.js';
export type { AuditSink, ProbedEvidence } from './engine.js';
export type { InquiryService } from './service.js';
export { AssessmentRow, concludeInquiry, findIdempotencyKey, findInquiry, latestAssessmentOf, openSessionInquiry } from './commands.js';
export type { InquiryScope } from './commands.js';
export { mayShowFindings } from './view.js';
export type { InquiryOutcome } from './view.js';
export { askOf, inquiryBody } from './wire.js';
export { askSubjectOf } from './ask.js';
export type { InquiryAsk } from './ask.js';
export type { InquiryView } from './wire.js';
export { ledgerOfEntities } from './ledgerOfEntities.js';
export { warmOneCall } from './oneCall.js';
