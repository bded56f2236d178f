import { isIP } from 'node:net';
import { OFFLINE, PERSONAL_FACT, defineCheck, neutral } from './evidence.js';
import { asciiHost, emailParts } from './hosts.js';

/**
 * Whether the email address is well formed. Only the dot-atom form is
 * accepted: quoted local parts and address literals are legal in RFC 5321 but
 * no mailbox people give out uses them, so they count against the subject.
 * Well-formedness is weak support (anyone can type a valid address). A
 * malformed address is not an address at all: that one fact is the form
 * check's (src/checks/valueFormCheck.ts), and this check, like every other
 * that reads an address's content, is not run on it.
 */

// RFC 5321 limits: 64 octets of local part, 254 for the whole forward path.
const MAX_LOCAL_LENGTH = 64;
const MAX_ADDRESS_LENGTH = 254;
const DOT_ATOM = /^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*$/u;
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Why the address is malformed, in words fit for a statement, or null when it is well formed. */
export function emailSyntaxProblem(raw: string): string | null {
  const value = raw.trim();
  if (value.length > MAX_ADDRESS_LENGTH) return 'it is longer than an address may be';
  const parts = emailParts(value);
  if (parts === null) return value.includes('@') ? 'it lacks a mailbox or a domain' : 'it has no @ sign';
  if (parts.local.length > MAX_LOCAL_LENGTH) return 'its mailbox part is too long';
  if (!DOT_ATOM.test(parts.local)) return 'its mailbox part contains characters or dots not allowed there';
  return domainProblem(parts.domain);
}

function domainProblem(domain: string): string | null {
  if (domain.startsWith('[')) return 'it names an address literal instead of a domain';
  const host = asciiHost(domain);
  if (host === null) return 'its domain is not a valid host name';
  if (isIP(host) !== 0) return 'it names an address literal instead of a domain';
  const labels = host.split('.');
  if (labels.length < 2) return 'its domain has no dot';
  if (!labels.every((label) => HOST_LABEL.test(label))) return 'its domain is not a valid host name';
  if (/^\d+$/.test(labels.at(-1)!)) return 'its domain ends in a number';
  return null;
}

export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'email_syntax',
    kind: 'email_syntax',
    looksAt: "the address's syntax (RFC 5321/5322 rules the service accepts)",
    declares: [
      { disposition: 'neutral', reason: 'Measured: every address, good or bad, is well formed, so it is reported, never scored.' },
    ],
    artifactTypes: ['EMAIL'],
    trustBand: 'low',
    dataClass: PERSONAL_FACT,
  },
  ({ presentation }) => (emailSyntaxProblem(presentation.value) === null ? neutral('The email address is well formed.') : []),
);
