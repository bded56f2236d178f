/**
 * The addresses of a case and its exports, built by the wire mapping only
 * (wire.ts): commands answer cases and exports without knowing where the
 * wire serves them (issue 49 item 5).
 */
export const caseEventsPath = (caseId: string): string => `/v1/cases/${caseId}/events`;
export const exportBundlePath = (caseId: string, exportId: string): string => `/v1/cases/${caseId}/exports/${exportId}/bundle`;
