import type { OperationSpec } from './operation.js';
import {
  CaseAssertionIn, CaseCreate, CaseExpandIn, CaseExportOut, CaseGraphOut, CaseHoldIn, CaseMemberIn, CaseOut,
  CaseReviewIn, IntakeManifest, IntakeOut,
} from '../cases/schemas.js';
import { EventEnvelopeList } from '../events/schemas.js';
import { InquiryResponse } from '../inquiries/schemas.js';
import { ObservationOut } from '../observations/schemas.js';
import { AfterQuery, CloseCaseQuery, ExportQuery } from './queries.js';
import { LAST_EVENT_ID } from './operationsCore.js';

/**
 * Case operations: investigative (KYB) tenants with an authorization record
 * only (rule C01). Every command appends one event to the case log.
 */

const caseId = { case_id: 'uuid' } as const;

/** A case command: POST with a body (or a query), answering with the case. */
function command(
  operationId: string, verb: string, summary: string, body: OperationSpec['body'], description?: string,
): OperationSpec {
  return {
    operationId, method: 'post', path: `/v1/cases/{case_id}/${verb}`, tag: 'Cases', auth: 'cases',
    summary, ...(description === undefined ? {} : { description }), params: caseId, body,
    success: { status: 200, description: 'The case after the command.', schema: CaseOut },
    validation: true,
  };
}

export const CASE_OPERATIONS: readonly OperationSpec[] = [
  {
    operationId: 'createCase', replayable: true, method: 'post', path: '/v1/cases', tag: 'Cases', auth: 'cases',
    summary: 'Open a case',
    description: 'Requires an investigative (KYB) tenant and an authorization record (rules C01, I13).',
    body: CaseCreate,
    success: { status: 201, description: 'The opened case.', schema: CaseOut },
    validation: true,
  },
  {
    operationId: 'getCase', method: 'get', path: '/v1/cases/{case_id}', tag: 'Cases', auth: 'cases',
    summary: 'Read a case', params: caseId,
    success: { status: 200, description: 'The case.', schema: CaseOut },
    validation: true,
  },
  command('changeCaseMembers', 'members', 'Add or remove a case member', CaseMemberIn),
  {
    operationId: 'intakeCase', replayable: true, method: 'post', path: '/v1/cases/{case_id}/intake', tag: 'Cases', auth: 'cases',
    summary: 'Take in a bounded manifest of presentations and material',
    description: 'Each item answers for itself (accepted, duplicate, rejected); the manifest becomes one case event; nothing is spent.',
    params: caseId, body: IntakeManifest,
    success: { status: 201, description: 'How each item was taken.', schema: IntakeOut },
    validation: true,
  },
  {
    operationId: 'expandCase', replayable: true, method: 'post', path: '/v1/cases/{case_id}/expand', tag: 'Cases', auth: 'cases',
    summary: 'Expand one budgeted hop of attribution',
    description: 'With `human_gate` the candidates come back first (as connections) and nothing is spent until `choose` picks some.',
    params: caseId, body: CaseExpandIn,
    success: { status: 202, description: 'The expansion inquiry; revisions follow on the case stream.', schema: InquiryResponse },
    validation: true,
  },
  {
    operationId: 'createCaseAssertion', replayable: true, method: 'post', path: '/v1/cases/{case_id}/assertions', tag: 'Cases', auth: 'cases',
    summary: "Enter an analyst's judgement as evidence",
    params: caseId, body: CaseAssertionIn,
    success: { status: 201, description: 'The recorded assertion.', schema: ObservationOut },
    validation: true,
  },
  command('holdCase', 'hold', 'Place a legal hold on a case', CaseHoldIn),
  command('releaseCase', 'release', 'Lift the legal hold of a case', CaseHoldIn),
  command('reviewCase', 'review', 'Review a case: sign off or request changes', CaseReviewIn),
  {
    operationId: 'exportCase', method: 'post', path: '/v1/cases/{case_id}/export', tag: 'Cases', auth: 'cases',
    summary: 'Export a signed-off case as an evidentiary bundle',
    params: caseId, query: ExportQuery,
    success: { status: 202, description: 'The export, being built.', schema: CaseExportOut },
    validation: true,
  },
  {
    operationId: 'getCaseExport', method: 'get', path: '/v1/cases/{case_id}/exports/{export_id}', tag: 'Cases', auth: 'cases',
    summary: 'Read an export of a case',
    description: 'Its status, and the download URL once ready. An extension of the contract (issue 14): SPEC.md gives no way to learn when an export is ready.',
    params: { ...caseId, export_id: 'uuid' },
    success: { status: 200, description: 'The export.', schema: CaseExportOut },
    validation: true,
  },
  {
    operationId: 'downloadCaseExport', method: 'get', path: '/v1/cases/{case_id}/exports/{export_id}/bundle', tag: 'Cases', auth: 'cases',
    summary: 'Download the evidentiary bundle of an export',
    description: 'The tar.gz bundle (DESIGN.md section 3) once the export is ready; 409 naming its status before. An extension of the contract (issue 14).',
    params: { ...caseId, export_id: 'uuid' },
    success: { status: 200, description: 'The bundle: manifest.json, manifest.sig and the case files.', contentType: 'application/gzip' },
    validation: true,
  },
  {
    operationId: 'closeCase', method: 'post', path: '/v1/cases/{case_id}/close', tag: 'Cases', auth: 'cases',
    summary: 'Close a case', params: caseId, query: CloseCaseQuery,
    success: { status: 200, description: 'The closed case.', schema: CaseOut },
    validation: true,
  },
  {
    operationId: 'getCaseGraph', method: 'get', path: '/v1/cases/{case_id}/graph', tag: 'Cases', auth: 'cases',
    summary: 'Read the graph of a case', params: caseId,
    success: { status: 200, description: 'Nodes and edges.', schema: CaseGraphOut },
    validation: true,
  },
  {
    operationId: 'getCaseTimeline', method: 'get', path: '/v1/cases/{case_id}/timeline', tag: 'Cases', auth: 'cases',
    summary: 'Read the timeline of a case', params: caseId,
    success: { status: 200, description: 'Case events in observed order.', schema: EventEnvelopeList },
    validation: true,
  },
  {
    operationId: 'streamCaseEvents', method: 'get', path: '/v1/cases/{case_id}/events', tag: 'Cases', auth: 'cases',
    summary: 'Stream case events (SSE)',
    description: 'Events: `CaseChanged`, `AssessmentRevised` (expansions), `MonitorTriggered` (case monitors).',
    params: caseId, query: AfterQuery, headers: [LAST_EVENT_ID],
    success: { status: 200, description: 'Server-sent events; each `data:` of an event with an `id:` is an EventEnvelope. Two live signals carry no `id:` (never stored, never replayed): `StreamEnding` ({stream_id, reason}) just before the server ends the response (`shutdown`: reconnect with Last-Event-ID; `monitor_deleted`, `key_revoked`, `key_expired`: do not), and on monitor streams `MonitorChecked` ({stream_id, checked_at, unchanged}) after a rescan that changed nothing.', contentType: 'text/event-stream' },
    validation: true,
  },
];
