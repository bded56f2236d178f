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
    },
    60_000,
  );
});
