import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi/document.js';
import { createResponseChecker } from '../../src/openapi/responseCheck.js';
import { OPERATIONS } from '../../src/schemas/operations.js';

/**
 * The checker every test service runs with (TAS_CHECK_RESPONSES): a test
 * file fails when its service sent anything the document does not describe.
 * Here, that it tells a matching answer from a wrong one.
 */
const checker = createResponseChecker(buildOpenApiDocument(OPERATIONS, { build: 'test', checks: [] }));
const problem = (status: number, code: string) =>
  JSON.stringify({ type: `urn:tas:problem:${code}`, title: 'x', status, detail: 'x', audit_id: '00000000-0000-4000-8000-000000000001' });

describe('the response checker', () => {
  it('passes a documented problem and flags one with a member its schema forbids', () => {
    expect(checker.answer('getInquiry', 404, 'application/problem+json', problem(404, 'not-found'))).toEqual([]);
    const extra = JSON.stringify({ ...JSON.parse(problem(404, 'not-found')), secret_source: 'x' });
    expect(checker.answer('getInquiry', 404, 'application/problem+json', extra)).not.toEqual([]);
  });

  it('flags a status the operation does not document, and a media type it does not', () => {
    expect(checker.answer('listPurposes', 409, 'application/problem+json', problem(409, 'conflict'))).toEqual([
      'status 409 is not documented for listPurposes',
    ]);
    expect(checker.answer('getInquiry', 404, 'application/json', problem(404, 'not-found'))[0]).toMatch(
      /application\/json is not documented/,
    );
  });

  it('flags a success body missing a required field', () => {
    expect(checker.answer('getInquiry', 200, 'application/json', JSON.stringify({ inquiry_id: 'x' }))).not.toEqual([]);
  });

  it('flags an event whose data is not its documented payload', () => {
    const envelope = {
      event_id: '00000000-0000-4000-8000-000000000002',
      type: 'CaseChanged',
      stream: 'case',
      stream_id: '00000000-0000-4000-8000-000000000003',
      sequence: 1,
      occurred_at: new Date().toISOString(),
      data: { case_id: 'nope' },
    };
    expect(checker.event(envelope)).not.toEqual([]);
  });
});
