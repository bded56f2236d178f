import { describe, expect, it } from 'vitest';
import { CaseExportOut, CaseOut } from '../../src/cases/schemas.js';
import { caseBody, exportBody } from '../../src/cases/wire.js';
import { MonitorOut } from '../../src/monitors/schemas.js';
import { monitorBody } from '../../src/monitors/wire.js';

/**
 * The routes add the addresses the commands no longer build (issue 49 item
 * 5). A body is sent as JSON.stringify writes it, so its fields keep the
 * order the schema (and every answer before) has them in, and the addresses
 * are the ones the service has always given.
 */
const BASE = 'https://tas.example';
const CASE_ID = '0190b0c4-7d3a-7000-8000-000000000001';
const EXPORT_ID = '0190b0c4-7d3a-7000-8000-000000000002';
const AT = '2026-11-29T00:00:00.000Z';

describe('the wire of cases and monitors', () => {
  it("a case's body: events_url under the base, every field where the schema has it", () => {
    const view = {
      case_id: CASE_ID,
      state: 'open' as const,
      legal_hold: false,
      title: 't',
      purpose: 'p',
      authorization: { kind: 'internal_mandate' as const, reference: 'r', issued_by: 'i' },
      members: [],
      budget: { limit: 10, spent: 0, remaining: 10 },
      entity_ids: [],
      finding: null,
      sequence: 1,
      created_at: AT,
      updated_at: AT,
      closed_at: null,
    };
    const body = caseBody(view, BASE);
    expect(Object.keys(body)).toEqual(Object.keys(CaseOut.shape));
    expect(body.events_url).toBe(`${BASE}/v1/cases/${CASE_ID}/events`);
  });

  it("an export's body: download_url once ready, never expiring, every field where the schema has it", () => {
    const view = (status: 'queued' | 'ready') => ({
      export_id: EXPORT_ID,
      case_id: CASE_ID,
      format: 'bundle',
      status,
      manifest_sha256: null,
      requested_at: AT,
    });
    const queued = exportBody(view('queued'), BASE);
    expect(Object.keys(queued)).toEqual(Object.keys(CaseExportOut.shape));
    expect(queued).toMatchObject({ download_url: null, expires_at: null });
    expect(exportBody(view('ready'), BASE).download_url).toBe(`${BASE}/v1/cases/${CASE_ID}/exports/${EXPORT_ID}/bundle`);
  });

  it("a monitor's body: events_url under the base, every field where the schema has it", () => {
    const view = {
      monitor_id: CASE_ID,
      state: 'active' as const,
      subject: { presentations: [{ type: 'EMAIL', value: 'a@example.com' }] },
      intent: 'i',
      purpose: 'p',
      stake: { kind: 'other' as const },
      cadence_seconds: 3600,
      triggers: {} as MonitorOut['triggers'],
      case_id: null,
      next_run_at: null,
      last_assessment: null,
      last_checked_at: null,
      unchanged_rescans: 0,
      created_at: AT,
    };
    const body = monitorBody(view, BASE);
    expect(Object.keys(body)).toEqual(Object.keys(MonitorOut.shape));
    expect(body.events_url).toBe(`${BASE}/v1/monitors/${CASE_ID}/events`);
  });
});
