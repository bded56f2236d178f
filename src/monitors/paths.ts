/**
 * A monitor's addresses, built by its wire mapping only (wire.ts): commands
 * answer monitors without knowing where the wire serves them (issue 49 item 5).
 */
export const monitorEventsPath = (monitorId: string): string => `/v1/monitors/${monitorId}/events`;
