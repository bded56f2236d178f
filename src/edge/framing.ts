/**
 * Message framing checks (RFC 9112) for what uWebSockets.js lets through.
 *
 * uWS parses the request head natively and hands us the headers of every
 * request it accepts, including ones a strict server must refuse: several
 * Content-Length lines (request smuggling turns on which one a hop believes),
 * a Transfer-Encoding it cannot decode, and heads or targets far larger than
 * any client of this API sends. Those are refused here, before routing, with
 * the status RFC 9110/9112 give and the connection closed, because after a
 * framing error the next byte on the connection cannot be trusted.
 *
 * What uWS never hands us (bare CR or LF, NUL in the head, HTTP/1.0, more
 * than 50 header lines, heads past about 128 KiB) it drops or leaves to its
 * idle timeout; DESIGN.md says what the reverse proxy in front must do there.
 */
export interface HeadFacts {
  /** Octets of the request target (path and query). */
  targetOctets: number;
  /** Octets of the header section as received (names, values, separators). */
  headerOctets: number;
  /** Every Content-Length field value, in order (duplicates kept). */
  contentLengths: string[];
  /** Every Transfer-Encoding field value, in order. */
  transferEncodings: string[];
}

export interface FramingRefusal {
  status: 400 | 414 | 431 | 501;
  title: string;
  detail: string;
}

/** RFC 9112 3: at least 8000 octets of target must be supported; we take 8 KiB and no more. */
export const MAX_TARGET_OCTETS = 8 * 1024;
/** Generous for API clients (one key, a few ids); well under what a proxy buffers. */
export const MAX_HEADER_OCTETS = 16 * 1024;

const DIGITS = /^[0-9]{1,15}$/;

export function framingRefusal(head: HeadFacts): FramingRefusal | null {
  if (head.targetOctets > MAX_TARGET_OCTETS) {
    return { status: 414, title: 'URI Too Long', detail: `The request target exceeds ${MAX_TARGET_OCTETS} octets.` };
  }
  if (head.headerOctets > MAX_HEADER_OCTETS) {
    return { status: 431, title: 'Request Header Fields Too Large', detail: `The header section exceeds ${MAX_HEADER_OCTETS} octets.` };
  }
  return lengthRefusal(head);
}

function lengthRefusal(head: HeadFacts): FramingRefusal | null {
  if (head.transferEncodings.length > 0) {
    if (head.contentLengths.length > 0) return badRequest('Content-Length and Transfer-Encoding together are refused (RFC 9112 6.3).');
    const codings = head.transferEncodings
      .join(',')
      .split(',')
      .map((c) => c.trim().toLowerCase());
    if (codings.length !== 1 || codings[0] !== 'chunked') {
      return { status: 501, title: 'Not Implemented', detail: 'Only Transfer-Encoding: chunked is understood (RFC 9112 6.1).' };
    }
    return null;
  }
  if (head.contentLengths.length > 1) return badRequest('More than one Content-Length field is refused (RFC 9112 6.3).');
  const [length] = head.contentLengths;
  if (length !== undefined && !DIGITS.test(length.trim()))
    return badRequest('Content-Length must be a decimal number of octets (RFC 9110 8.6).');
  return null;
}

function badRequest(detail: string): FramingRefusal {
  return { status: 400, title: 'Bad Request', detail };
}
