/**
 * The first inquiry shown to a newcomer: by the start banner (with a test key
 * it provides), the index page and the README. One place, so all three show
 * the same call, and a test runs it as printed (test/cli/firstInquiry.test.ts).
 * Every value in it is in the default registry grants of a new tenant
 * (sql/000001): an address at a look-alike of a brand's domain, so the
 * answer has findings to read.
 */
export const FIRST_INQUIRY = {
  subject: { presentations: [{ type: 'EMAIL', value: 'billing@paypa1-login.com' }] },
  intent: 'counterparty_check',
  purpose: 'fraud_prevention',
  stake: { kind: 'payment', amount: 250, currency: 'EUR' },
} as const;

/** A shell command that opens the first inquiry against `baseUrl` with `key` (a literal key or `$VAR`). */
export function firstInquiryCurl(baseUrl: string, key: string): string {
  const auth = key.startsWith('$') ? `"Authorization: Bearer ${key}"` : `'Authorization: Bearer ${key}'`;
  return [
    `curl -s ${baseUrl}/v1/inquiries \\`,
    `  -H ${auth} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${JSON.stringify(FIRST_INQUIRY)}'`,
  ].join('\n');
}
