import { link, type ChainRow } from './chain.js';
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
 */
export interface TrailFault {
  line: number;
  position: number | null;
  auditId: string | null;
  reason: 'foreign' | 'position' | 'prev' | 'hash' | 'seal' | 'missing' | 'format';
  detail: string;
}

export interface TrailVerdict {
  tenantId: string | null;
  mode: string | null;
  rows: number;
  seals: number;
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
  first_prev: string;
  last_hash: string;
}
interface RowLine {
  type: 'row';
  position: number;
  prev_hash: string;
  hash: string;
  row: ChainRow;
}

export function verifyTrail(text: string): TrailVerdict {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const verdict: TrailVerdict = { tenantId: null, mode: null, rows: 0, seals: 0, fault: null };
  const fail = (line: number, reason: TrailFault['reason'], detail: string, row?: RowLine): TrailVerdict => ({
    ...verdict,
    fault: { line, position: row?.position ?? null, auditId: row?.row?.audit_id ?? null, reason, detail },
  });
  const parsed: unknown[] = [];
  for (const [i, l] of lines.entries()) {
    try {
      parsed.push(JSON.parse(l));
    } catch {
      return fail(i + 1, 'format', 'not JSON');
    }
  }
  const header = parsed[0] as Header | undefined;
  if (header?.type !== 'header' || header.format !== TRAIL_FORMAT)
    return fail(1, 'format', `the first line is not a ${TRAIL_FORMAT} header`);
  verdict.tenantId = header.tenant_id;
  verdict.mode = header.mode;
  const seals: { line: number; seal: SealLine }[] = [];
  let i = 1;
  for (; i < parsed.length && (parsed[i] as { type?: string }).type === 'seal'; i++)
    seals.push({ line: i + 1, seal: parsed[i] as SealLine });
  verdict.seals = seals.length;
  // The seals meet end to end, from the anchor, over the header's positions.
  let expectPosition = header.first_position;
  let expectPrev = header.anchor_hash;
  for (const { line, seal } of seals) {
    if (seal.first_position !== expectPosition || seal.first_prev !== expectPrev)
      return fail(line, 'seal', `the seal of ${seal.period} does not start where the one before ends`);
    expectPosition = seal.last_position + 1;
    expectPrev = seal.last_hash;
  }
  if (seals.length > 0 && seals.at(-1)!.seal.last_position !== header.last_position)
    return fail(seals.at(-1)!.line, 'seal', "the last seal does not end at the header's last position");
  const sealAt = new Map(seals.map((s) => [s.seal.last_position, s]));
  // The rows, in file order, from the anchor.
  let prev: Buffer = Buffer.from(header.anchor_hash, 'hex');
  let position = header.first_position ?? 1;
  for (; i < parsed.length; i++) {
    const row = parsed[i] as RowLine;
    if (row?.type !== 'row' || typeof row.row !== 'object' || row.row === null)
      return fail(i + 1, 'format', 'a line after the rows began is not a row');
    if (row.row.tenant_id !== header.tenant_id || row.row.mode !== header.mode)
      return fail(i + 1, 'foreign', `a row of ${row.row.tenant_id ?? 'no tenant'} (${row.row.mode ?? 'no mode'})`, row);
    if (row.position !== position) return fail(i + 1, 'position', `position ${position} expected here, the row says ${row.position}`, row);
    if (row.prev_hash !== prev.toString('hex')) return fail(i + 1, 'prev', 'its link does not continue the one before', row);
    const hash = link(prev, row.row);
    if (row.hash !== hash.toString('hex')) return fail(i + 1, 'hash', 'its content does not give its link: changed', row);
    const seal = sealAt.get(position);
    if (seal && seal.seal.last_hash !== row.hash)
      return fail(seal.line, 'seal', `the seal of ${seal.seal.period} names another last link`, row);
    prev = hash;
    position += 1;
    verdict.rows += 1;
  }
  if (header.last_position !== null && position !== header.last_position + 1)
    return fail(lines.length, 'missing', `the rows end at position ${position - 1}, the seals at ${header.last_position}`);
  return verdict;
}
