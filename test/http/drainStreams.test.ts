import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestService, type TestService } from '../support/service.js';

/**
 * Graceful drain (issue 16), for streams: on stop an open event stream gets a
 * final `StreamEnding` event naming the reason (`shutdown`: reconnect, to
 * another instance, with Last-Event-ID) before its response ends.
 */
let ts: TestService;
beforeAll(async () => {
  ts = await startTestService({}, { workers: false });
});
afterAll(async () => {
  // Stopped by the test itself; a failure before that still stops it.
  await ts?.stop().catch(() => undefined);
});

describe('stopping the service with a stream open', () => {
  it('sends StreamEnding with reason shutdown, then ends the response', async () => {
    const opened = await fetch(`${ts.base}/v1/cases`, {
      method: 'POST',
      headers: { ...bearer(ts.tenant.keys.test), 'content-type': 'application/json' },
      body: JSON.stringify({
        title: 'Drain',
        purpose: 'investigation',
        authorization: { kind: 'court_order', reference: 'CO-9', issued_by: 'Court' },
      }),
    });
    expect(opened.status).toBe(201);
    const caseId = ((await opened.json()) as { case_id: string }).case_id;
    const stream = await fetch(`${ts.base}/v1/cases/${caseId}/events`, { headers: bearer(ts.tenant.keys.test) });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    let text = '';
    // The case's first event (opened) proves the stream is live before the stop.
    while (!text.includes('event: CaseChanged')) text += new TextDecoder().decode((await reader.read()).value);
    const stopped = ts.stop();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await stopped;
    const ending = text.slice(text.indexOf('event: StreamEnding'));
    expect(ending).toMatch(/^event: StreamEnding\ndata: (.+)\n\n$/);
    expect(JSON.parse(ending.split('\n')[1]!.slice('data: '.length))).toEqual({ stream_id: caseId, reason: 'shutdown' });
  });
});
