import { describe, expect, it } from 'vitest';
import { OFFLINE, defineCheck, neutral } from '../../src/checks/evidence.js';
import { ERROR_REASON, TIMEOUT_REASON, runCheck, runCheckNowOrLater } from '../../src/checks/runCheck.js';
import type { CheckDefinition } from '../../src/checks/types.js';
import { timeoutAbsences } from '../../src/assessment/index.js';
import { absent } from '../../src/checks/evidence.js';
import { contextFor, presentation } from './support.js';

function checkRunning(run: CheckDefinition['run'], timeoutMs = 50): CheckDefinition {
  return {
    ...OFFLINE,
    id: 'probe',
    kind: 'probe',
    artifactTypes: ['EMAIL'],
    trustBand: 'low',
    dataClass: 'C0',
    timeoutMs,
    run,
    ...DECLARES,
  };
}

const DECLARES = { looksAt: 'a probe', declares: [{ disposition: 'neutral', reason: 'A probe.' }] } as const;
const context = () => contextFor('EMAIL', 'jane@example.com');
const never = () => new Promise<never>(() => undefined);

describe('runCheck', () => {
  it('given a check that answers, then its result passes through', async () => {
    const check = defineCheck(
      { ...OFFLINE, id: 'ok', kind: 'ok', artifactTypes: ['EMAIL'], trustBand: 'low', dataClass: 'C0', ...DECLARES },
      () => neutral('Fine.'),
    );
    const result = await runCheck(check, context());
    expect(result.signals.map((signal) => signal.statement)).toEqual(['Fine.']);
  });

  it.each<[string, CheckDefinition['run']]>([
    [
      'throws synchronously',
      () => {
        throw new Error('secret-host.internal refused');
      },
    ],
    ['rejects', () => Promise.reject(new Error('AcmeSecretIntel 500 {"raw":"payload"}'))],
    ['returns something that is not a result', () => 'nonsense' as never],
  ])('given a check that %s, then an error absence with a neutral reason', async (_given, run) => {
    const result = await runCheck(checkRunning(run), context());
    expect(result).toEqual({
      signals: [],
      absences: [{ about: 'jane@example.com', about_type: 'EMAIL', kind: 'error', reason: `probe: ${ERROR_REASON}` }],
    });
  });

  it('given an inline check that answers at once, then its answer comes back at once, with no clock started', () => {
    const check = defineCheck(
      { ...OFFLINE, id: 'ok', kind: 'ok', artifactTypes: ['EMAIL'], trustBand: 'low', dataClass: 'C0', ...DECLARES },
      () => neutral('Fine.'),
    );
    const answered = runCheckNowOrLater(check, context());
    expect(answered).not.toBeInstanceOf(Promise);
    expect((answered as { signals: { statement: string }[] }).signals.map((s) => s.statement)).toEqual(['Fine.']);
  });

  it('given an inline check that turns out to wait, then it still times out', async () => {
    const result = await runCheckNowOrLater(checkRunning(never, 20), context());
    expect(result.absences.map((a) => a.kind)).toEqual(['timeout']);
  });

  it('given a check that never answers, then a timeout absence at its timeout', async () => {
    const started = Date.now();
    const result = await runCheck(checkRunning(never, 30), context());
    expect(result.absences).toEqual([
      { about: 'jane@example.com', about_type: 'EMAIL', kind: 'timeout', reason: `probe: ${TIMEOUT_REASON}` },
    ]);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('gives the check a signal that fires at the timeout', async () => {
    let sawAbort = false;
    const run: CheckDefinition['run'] = ({ signal }) =>
      new Promise((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          sawAbort = true;
          reject(new Error('aborted'));
        });
      });
    const result = await runCheck(checkRunning(run, 20), context());
    expect(sawAbort).toBe(true);
    expect(result.absences[0]!.kind).toBe('timeout');
  });

  it("given the caller's deadline passes first, then a timeout absence", async () => {
    const deadline = new AbortController();
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const pending = runCheck(
      checkRunning(() => {
        started();
        return never();
      }, 10_000),
      { ...context(), signal: deadline.signal },
    );
    // The deadline passes once the check is running, long before its own 10 s.
    await running;
    deadline.abort();
    const result = await pending;
    expect(result.absences[0]!.kind).toBe('timeout');
  });

  it('given a deadline already passed, then the check is not even started', async () => {
    let started = false;
    const deadline = new AbortController();
    deadline.abort();
    const result = await runCheck(
      checkRunning(() => {
        started = true;
        return { signals: [], absences: [] };
      }),
      { ...context(), signal: deadline.signal },
    );
    expect(started).toBe(false);
    expect(result.absences[0]!.kind).toBe('timeout');
  });
});

describe('runCheck and a check that honours its signal', () => {
  it("keeps the check's own, more specific timeout absence", async () => {
    const run: CheckDefinition['run'] = (ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () =>
          resolve({
            signals: [],
            absences: [
              { about: ctx.presentation.value, about_type: 'EMAIL', kind: 'timeout', reason: 'The look-up did not answer in time.' },
            ],
          }),
        );
      });
    const result = await runCheck(checkRunning(run, 20), context());
    expect(result.absences[0]!.reason).toBe('probe: The look-up did not answer in time.');
  });
});

describe('an absence names the check that could not answer (issue 47 item 6)', () => {
  const answeringNothing = (id: string) =>
    defineCheck({ ...OFFLINE, id, kind: id, artifactTypes: ['EMAIL'], trustBand: 'low', dataClass: 'C0', ...DECLARES }, () =>
      absent('no_data', 'The email address has no domain that could be checked.'),
    );

  it('given two checks that give the same reason, then their absences read differently, each led by its id', async () => {
    const [one, two] = await Promise.all([
      runCheck(answeringNothing('dns_mx'), context()),
      runCheck(answeringNothing('public_suffix'), context()),
    ]);
    expect(one.absences[0]!.reason).toBe('dns_mx: The email address has no domain that could be checked.');
    expect(two.absences[0]!.reason).toBe('public_suffix: The email address has no domain that could be checked.');
  });

  it('given a worker check still pending at the deadline, then its timeout absence names it from its job key', () => {
    const pending = [
      { presentation: presentation('EMAIL', 'jane@example.com'), key: '0192f0c4-1111-7000-8000-000000000000.dns_mx.abc' },
      { presentation: presentation('EMAIL', 'jane@example.com'), key: '0192f0c4-1111-7000-8000-000000000000.rdap_domain_age.abc' },
    ];
    expect(timeoutAbsences(pending).map((a) => a.reason)).toEqual([
      'dns_mx: The check did not answer before the deadline.',
      'rdap_domain_age: The check did not answer before the deadline.',
    ]);
  });
});
