import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../actors/types.js';
import { createWebhookFanout, webhookStreamOf } from '../../src/webhooks/fanout.js';
import type { WebhookFanoutJob } from '../../src/webhooks/jobShapes.js';

/**
 * The webhooks' fan-out rule (src/webhooks/fanout.ts), which the relay's
 * publish applies to every event: given a published event, when the rule
 * reads it, then only a subscribable type goes out, on its stream kind, a
 * monitor's event copied onto its case's stream does not go out twice, and
 * nothing is queued for a tenant no endpoint of which wants the type.
 */
const MONITOR = '00000000-0000-4000-8000-00000000000a';
const CASE = '00000000-0000-4000-8000-00000000000b';
const scope = { tenantId: '00000000-0000-4000-8000-000000000001', mode: 'test' as const };
const event = (stream_id: string, type: string, payload: Record<string, unknown> = {}): StreamEvent => ({
  stream_id,
  seq: 4,
  type,
  payload,
  occurred_at: '2026-11-28T00:00:00.000Z',
});

describe('the webhook fan-out rule', () => {
  it.each([
    ['InquiryConcluded', 'inquiry'],
    ['AssessmentRevised', 'inquiry'],
    ['CaseChanged', 'case'],
    ['AssessmentIssued', null],
    ['SessionOpened', null],
  ])('%s goes out as %s', (type, stream) => {
    expect(webhookStreamOf(CASE, event(CASE, type))).toBe(stream);
  });

  it("a monitor's MonitorTriggered goes out from the monitor's own stream, not from its copy on the case's", () => {
    expect(webhookStreamOf(MONITOR, event(MONITOR, 'MonitorTriggered', { monitor_id: MONITOR }))).toBe('monitor');
    expect(webhookStreamOf(CASE, event(CASE, 'MonitorTriggered', { monitor_id: MONITOR }))).toBeNull();
  });

  it('queues one fanout job, with the id of its stream and seq, only when an endpoint of the tenant wants the type', async () => {
    const queued: { jobId: string; data: WebhookFanoutJob }[] = [];
    const asked: string[] = [];
    const fanOut = createWebhookFanout({
      wants: (_scope, type) => {
        asked.push(type);
        return Promise.resolve(type === 'CaseChanged');
      },
      enqueue: (job) => Promise.resolve(void queued.push(job)),
    });
    await fanOut(CASE, event(CASE, 'CaseChanged'), scope);
    await fanOut(CASE, event(CASE, 'InquiryConcluded'), scope);
    await fanOut(CASE, event(CASE, 'AssessmentIssued'), scope);
    expect(asked).toEqual(['CaseChanged', 'InquiryConcluded']);
    expect(queued).toEqual([{ jobId: `${CASE}.4`, data: { ...scope, event: event(CASE, 'CaseChanged'), stream: 'case' } }]);
  });
});
