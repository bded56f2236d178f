import { link, type ChainRow } from './chain.js';
import { sealSignatureProblem, type PublishedKey, type SealFacts } from './sealSignature.js';
import { TRAIL_FORMAT } from './trailExport.js';

/**
 * Verifies a tenant's exported trail (trailExport.ts) offline, from the file
 * alone: every row's link recomputed from the anchor in file order, every
 * seal checked against the links it names, the seals meeting end to end, and
 * the rows covering exactly the seals' positions. The first fault is named by
 * its line, position and audit id:
 *
 *   foreign   a row of another tenant or mode than the header's
 *   position  a row out of place: one before it removed, or rows reordered or added
 *   prev      a row whose link does not continue the one before
 *   hash      a row whose content does not give its link (changed)
 *   seal      a seal that the links (or the seal before it) do not meet
 *   missing   the rows end before the last seal's last position
 *   format    a line that is not part of the format
 *   unsigned  a seal without a signature, when the published keys are given
 *   signature a seal whose signature does not hold under the published keys
 *
 * Given the published keys (/.well-known/tas-export-keys.json), every seal
 * must carry a good signature of the service: the anchor and the last link
 * are then the service's word, and a file rebuilt from altered rows with
 * links computed anew no longer passes. Without them, the links and seals
 * are checked against each other only, and the verdict says so.
 *
 * The check reads the file a line at a time (trailVerifier), so an export
 * of any length is verified in the memory of one line and the seals.
 */
export interface TrailFault {
  line: number;
  position: number | null;
  auditId: string | null;
  reason: 'foreign' | 'position' | 'prev' | 'hash' | 'seal' | 'missing' | 'format' | 'unsigned' | 'signature';
  detail: string;
}

export interface TrailVerdict {
  tenantId: string | null;
  mode: string | null;
  rows: number;
  seals: number;
  /** Whether the seals' signatures were checked (the published keys were given). */
  signaturesChecked: boolean;
  fault: TrailFault | null;
}

interface Header {
  type: 'header';
  format: string;
  tenant_id: string;
  mode: string;
  first_position: number | null;
  last_position: number | null;
  anchor_hash: string;
}
interface SealLine {
  type: 'seal';
  period: string;
  first_position: number;
  last_position: number;
  links: number;
  first_prev: string;
  last_hash: string;
  kid: string | null;
  signed_at: string | null;
  signature: string | null;
}
interface RowLine {
  type: 'row';
  position: number;
  prev_hash: string;
  hash: string;
  row: ChainRow;
}

export function verifyTrail(text: string, keys?: readonly PublishedKey[]): TrailVerdict {
  const verifier = trailVerifier(keys);
  for (const line of text.split('\n')) if (verifier.line(line) !== null) break;
  return verifier.end();
}

/** The check, fed one line at a time; `line` answers the fault once there is one (later lines are then ignored). */
export function trailVerifier(keys?: readonly PublishedKey[]): { line(text: string): TrailFault | null; end(): TrailVerdict } {
  const verdict: TrailVerdict = { tenantId: null, mode: null, rows: 0, seals: 0, signaturesChecked: keys !== undefined, fault: null };
  let lineNo = 0;
  let header: Header | null = null;
  const sealAt = new Map<number, { line: number; seal: SealLine }>();
  let rowsBegan = false;
  let expectPosition: number | null = null;
  let expectPrev = '';
  let lastSeal: { line: number; seal: SealLine } | null = null;
  let prev: Buffer = Buffer.alloc(0);
  let position = 1;
  const fail = (reason: TrailFault['reason'], detail: string, row?: RowLine, line = lineNo): TrailFault => {
    verdict.fault = { line, position: row?.position ?? null, auditId: row?.row?.audit_id ?? null, reason, detail };
    return verdict.fault;
  };
  const onSeal = (seal: SealLine): TrailFault | null => {
    // The seals meet end to end, from the anchor, over the header's positions.
    if (seal.first_position !== expectPosition || seal.first_prev !== expectPrev)
      return fail('seal', `the seal of ${seal.period} does not start where the one before ends`);
    if (keys !== undefined) {
      if (seal.signature === null || seal.kid === null || seal.signed_at === null)
        return fail('unsigned', `the seal of ${seal.period} is not signed (yet): export again once the service has signed it`);
      const facts: SealFacts = {
        tenantId: header!.tenant_id,
        mode: header!.mode,
        period: seal.period,
        firstPosition: seal.first_position,
        lastPosition: seal.last_position,
        links: seal.links,
        firstPrev: seal.first_prev,
        lastHash: seal.last_hash,
      };
      const problem = sealSignatureProblem(keys, facts, {
        kid: seal.kid,
        signedAt: seal.signed_at,
        signature: Buffer.from(seal.signature, 'base64url'),
      });
      if (problem !== null) return fail('signature', `the seal of ${seal.period}: ${problem}`);
    }
    expectPosition = seal.last_position + 1;
    expectPrev = seal.last_hash;
    lastSeal = { line: lineNo, seal };
    sealAt.set(seal.last_position, lastSeal);
    verdict.seals += 1;
    return null;
  };
  const beginRows = (): TrailFault | null => {
    rowsBegan = true;
    if (lastSeal !== null && lastSeal.seal.last_position !== header!.last_position)
      return fail('seal', "the last seal does not end at the header's last position", undefined, lastSeal.line);
    prev = Buffer.from(header!.anchor_hash, 'hex');
    position = header!.first_position ?? 1;
    return null;
  };
  const onRow = (row: RowLine): TrailFault | null => {
    if (row?.type !== 'row' || typeof row.row !== 'object' || row.row === null)
      return fail('format', 'a line after the rows began is not a row');
    if (row.row.tenant_id !== header!.tenant_id || row.row.mode !== header!.mode)
      return fail('foreign', `a row of ${row.row.tenant_id ?? 'no tenant'} (${row.row.mode ?? 'no mode'})`, row);
    if (row.position !== position) return fail('position', `position ${position} expected here, the row says ${row.position}`, row);
    if (row.prev_hash !== prev.toString('hex')) return fail('prev', 'its link does not continue the one before', row);
    const hash = link(prev, row.row);
    if (row.hash !== hash.toString('hex')) return fail('hash', 'its content does not give its link: changed', row);
    const seal = sealAt.get(position);
    if (seal && seal.seal.last_hash !== row.hash)
      return fail('seal', `the seal of ${seal.seal.period} names another last link`, row, seal.line);
    prev = hash;
    position += 1;
    verdict.rows += 1;
    return null;
  };
  return {
    line(text) {
      if (verdict.fault !== null) return verdict.fault;
      lineNo += 1;
      if (text.trim() === '') return null;
      let parsed: { type?: string };
      try {
        parsed = JSON.parse(text) as { type?: string };
      } catch {
        return fail('format', 'not JSON');
      }
      if (header === null) {
        const h = parsed as Header;
        if (h?.type !== 'header' || h.format !== TRAIL_FORMAT) return fail('format', `the first line is not a ${TRAIL_FORMAT} header`);
        header = h;
        verdict.tenantId = h.tenant_id;
        verdict.mode = h.mode;
        expectPosition = h.first_position;
        expectPrev = h.anchor_hash;
        return null;
      }
      if (!rowsBegan && parsed?.type === 'seal') return onSeal(parsed as SealLine);
      if (!rowsBegan) {
        const fault = beginRows();
        if (fault !== null) return fault;
      }
      return onRow(parsed as RowLine);
    },
    end() {
      if (verdict.fault !== null) return verdict;
      if (header === null) {
        fail('format', `the first line is not a ${TRAIL_FORMAT} header`, undefined, 1);
        return verdict;
      }
      if (!rowsBegan && beginRows() !== null) return verdict;
      if (header.last_position !== null && position !== header.last_position + 1)
        fail('missing', `the rows end at position ${position - 1}, the seals at ${header.last_position}`);
      return verdict;
    },
  };
}
