/**
 * Linear-time pieces of identifier extraction (issue 12 item 3).
 *
 * A regular expression such as `[A-Za-z0-9._%+-]+@...` tries every start
 * position of a long run of mailbox characters and scans to its end each
 * time: quadratic, seconds for 100 KB. Here emails are found from their `@`
 * outwards with bounded scans, and spans are claimed on a per-character map,
 * so the work grows with the length of the text and nothing else.
 */

// RFC 5321: a mailbox name is at most 64 octets, a domain at most 255.
const MAX_LOCAL = 64;
const MAX_DOMAIN = 255;
const DOMAIN_AT_START = /^[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/;

function isLocalChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 46 ||
    code === 95 ||
    code === 37 ||
    code === 43 ||
    code === 45
  ); // . _ % + -
}

function isDomainChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 46 || code === 45;
}

/**
 * Email-shaped spans (`start` inclusive, `end` exclusive), left to right,
 * never overlapping: the same matches as the pattern above for any address
 * within the RFC's lengths, found in O(n).
 */
export function emailSpans(line: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  let floor = 0;
  for (let at = line.indexOf('@'); at !== -1; at = line.indexOf('@', at + 1)) {
    if (at < floor) continue;
    let start = at;
    while (start > floor && at - start < MAX_LOCAL && isLocalChar(line.charCodeAt(start - 1))) start -= 1;
    if (start === at) continue;
    let limit = at + 1;
    while (limit < line.length && limit - at <= MAX_DOMAIN && isDomainChar(line.charCodeAt(limit))) limit += 1;
    const domain = DOMAIN_AT_START.exec(line.slice(at + 1, limit));
    if (domain === null) continue;
    const end = at + 1 + domain[0].length;
    spans.push({ start, end });
    floor = end;
  }
  return spans;
}

/** Which characters of a line are already claimed by an identifier. */
export class ClaimedSpans {
  private readonly claimed: Uint8Array;

  constructor(length: number) {
    this.claimed = new Uint8Array(length);
  }

  /** Claims the span unless any of it is already claimed; O(its length). */
  claim(start: number, end: number): boolean {
    for (let i = start; i < end; i += 1) if (this.claimed[i] === 1) return false;
    this.claimed.fill(1, start, end);
    return true;
  }
}
