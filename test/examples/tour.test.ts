import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/service.js';

/**
 * The README's five-minute tour (examples/tour.sh) run as a newcomer runs it,
 * with curl and jq, against a real service: every step must answer as the
 * README says.
 */
const TOUR = fileURLToPath(new URL('../../examples/tour.sh', import.meta.url));
const run = promisify(execFile);
const hasJq = (() => {
  try {
    execFileSync('jq', ['--version']);
    return true;
  } catch {
    return false;
  }
})();

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({ TAS_MIN_MONITOR_CADENCE_SECONDS: '60' });
});
afterAll(async () => ts?.stop());

async function policies(): Promise<Record<string, unknown>[]> {
  const res = await fetch(`${ts.base}/v1/admin/policies`, { headers: { authorization: `Bearer ${ts.tenant.keys.test_admin}` } });
  return (await res.json()) as Record<string, unknown>[];
}

describe('examples/tour.sh', () => {
  it.skipIf(!hasJq)(
    'runs every step: an inquiry and its findings, the registry, a policy that labels, a monitor and its stream',
    async () => {
      const { stdout } = await run('sh', [TOUR], {
        env: { ...process.env, TAS: ts.base, KEY: ts.tenant.keys.test, ADMIN_KEY: ts.tenant.keys.test_admin },
      });
      expect(stdout).toMatch(/"status":"concluded","score":\d+,"low":\d+,"high":\d+,"label":null/);
      expect(stdout).toMatch(/weakens\t\w+\t.*paypa1-login\.com/);
      expect(stdout).toMatch(/purposes: .*fraud_prevention/);
      expect(stdout).toMatch(/artifact-types: .*EMAIL/);
      expect(stdout).toMatch(/\{"policy_version":1,"current":true\}/);
      expect(stdout).toMatch(/"label":\{"value":"(decline|review|proceed)","policy_version":1\}/);
      expect(stdout).toMatch(/"state":"active"/);
      expect(stdout).toContain('ended with: DELETE /v1/monitors/');

      // The tenant is left as the tour found it: no label, and the pages' defaults (the session page's
      // onboarding intent, the console's investigation purpose) still admitted.
      const ask = async (intent: string, purpose: string) => {
        const res = await fetch(`${ts.base}/v1/inquiries`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ts.tenant.keys.test}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            subject: { presentations: [{ type: 'EMAIL', value: 'ann@example.org' }] },
            intent,
            purpose,
            stake: { kind: 'payment', amount: 10, currency: 'EUR' },
          }),
        });
        return { status: res.status, body: (await res.json()) as { assessment?: { label: unknown } } };
      };
      const onboarding = await ask('onboarding', 'fraud_prevention');
      expect(onboarding.status, JSON.stringify(onboarding.body)).toBe(200);
      expect(onboarding.body.assessment?.label).toBeNull();
      expect((await ask('investigation', 'investigation')).status).toBe(200);
    },
    60_000,
  );

  it.skipIf(!hasJq)('a second run puts back the policy it found, and a closed port is one line and exit 1', async () => {
    const env = { ...process.env, TAS: ts.base, KEY: ts.tenant.keys.test, ADMIN_KEY: ts.tenant.keys.test_admin };
    const before = await policies();
    await run('sh', [TOUR], { env });
    const after = await policies();
    const terms = (p: Record<string, unknown>) => {
      const { policy_version: _v, created_at: _c, current: _cur, ...rest } = p;
      return rest;
    };
    expect(terms(after[0]!)).toEqual(terms(before[0]!));

    const closed = await run('sh', [TOUR], { env: { ...env, TAS: '', TAS_URL: '', PORT: '9' } }).catch((e: unknown) => e);
    const failure = closed as { code?: number; stderr?: string; stdout?: string };
    expect(failure.code).toBe(1);
    expect(failure.stderr?.trim()).toBe(
      'tour: cannot connect to the service at http://127.0.0.1:9: start it with npm start, or set TAS_URL (or PORT) to where it listens',
    );
  });
});
