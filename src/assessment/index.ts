/** The assessment capability's surface: the only file (with schemas.ts) that other folders import. */
export { assessmentOf } from './assessmentOf.js';
export type { AssessmentColumns } from './assessmentOf.js';
export { assessNow, checkById, normaliseSubject, runInline, timeoutAbsences } from './evaluate.js';
export type { InquiryFacts } from './evaluate.js';
export { gatherSubject } from './gather.js';
export type { KnownValues, MaterialBinding } from './gather.js';
export { planChecks } from './plan.js';
export type { CheckPlan } from './plan.js';
export { parseInquiryFacts, parseViewFacts } from './storedFacts.js';
export type { ViewFacts } from './storedFacts.js';
export { factsOf } from './facts.js';
export type { Found, Question } from './facts.js';
