/**
 * Whether the assessment an event will issue is preliminary. The inquiry
 * machine decides this (it stamps the flag); the caller needs the same answer
 * beforehand only because a policy's label rules may look at `preliminary`.
 * test/inquiries/preliminary.test.ts runs the machine to prove they agree.
 */
export type InquiryEventKind = 'inquiry.evaluated' | 'check.reported' | 'deadline.reached' | 'reasoning.expired';

export function willBePreliminary(state: string, event: InquiryEventKind, settled: boolean, preliminaryAllowed: boolean): boolean {
  if (event === 'deadline.reached') return state === 'reasoning' && preliminaryAllowed;
  if (event === 'check.reported') return state === 'preliminary' && !settled;
  return false;
}
