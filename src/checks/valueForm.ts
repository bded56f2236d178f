import { isIP } from 'node:net';
import { describeType } from './artifactTypes.js';
import { emailSyntaxProblem } from './emailSyntaxCheck.js';
import { domainHost, parseWebAddress, asciiHost, viewHost } from './hosts.js';
import { asCountryCode, readPhoneValue } from './phoneParsing.js';

/**
 * Whether a presentation is a value of its type at all: `not an email`
 * presented as an EMAIL, a phone number that cannot be read, a domain that
 * is not a host name, a web address that does not parse. Such a value is one
 * fact, whatever else would have been asked of it: the value_form check
 * reports it (src/checks/valueFormCheck.ts), and no check that reads the
 * value's content runs on it (src/assessment/plan.ts), since there is no
 * content to read, so a dozen checks cannot each report that they could not
 * parse it. Only the four types a subject types in are judged this way; an
 * IP comes from the tenant's logs and the other types have no form.
 *
 * A value of its type that is odd in other ways (a host under no public
 * suffix, a bare IP for a domain, a number invalid in its plan) is not
 * malformed: those are questions the other checks answer.
 */

// A registered name is letters, digits and inner hyphens (RFC 1123 section 2.1; registries issue no other).
const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
// Below it the owner names its own hosts, and DNS lets those hold `_` (service names, some cloud hosts).
const OWN_LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

/** Why the value is not a value of its type, in words fit for a statement, or null when it is one (or its type has no form). */
export function formProblem(type: string, value: string, country?: string): string | null {
  switch (type) {
    case 'EMAIL':
      return emailSyntaxProblem(value);
    case 'PHONE':
      // A national number with no country to read it in is ambiguous, not malformed (phone_validity's absence).
      return readPhoneValue(value, asCountryCode(country)).status === 'unreadable' ? 'it cannot be read as a phone number' : null;
    case 'DOMAIN': {
      const host = domainHost(value);
      return host === null ? 'it cannot be read as a host name' : hostProblem(host);
    }
    case 'URL': {
      const url = parseWebAddress(value);
      if (url === null) return 'it cannot be read as a web address';
      const host = asciiHost(url.hostname);
      return host === null ? 'its host cannot be read as a host name' : hostProblem(host);
    }
    default:
      return null;
  }
}

/**
 * A host no registry could have issued (`exa_mple.com`, `-bad-.com`). A host
 * of valid labels under no registrable domain (`localhost`) is a host name,
 * just not a public one: public_suffix says so.
 */
function hostProblem(host: string): string | null {
  if (isIP(host) !== 0) return null;
  const view = viewHost(host);
  const registered = view.registrable === null ? host.split('.') : view.registrable.split('.');
  const own = view.registrable === null || view.subdomain === '' ? [] : view.subdomain.split('.');
  const valid = registered.every((label) => HOST_LABEL.test(label)) && own.every((label) => OWN_LABEL.test(label));
  return valid ? null : 'its domain name is not a valid host name';
}

// What normalisePresented found of each presentation it made, so the form check does not judge it again.
const judged = new WeakMap<object, string | null>();

/** Records the form found for a presentation (src/checks/normalise.ts). */
export function rememberForm(presentation: object, problem: string | null): void {
  judged.set(presentation, problem);
}

/** The form found for this presentation object when it was normalised, or undefined when it was made elsewhere. */
export function rememberedForm(presentation: object): string | null | undefined {
  return judged.get(presentation);
}

/** The statement for a malformed value: "The value presented as an email address is not one: it has no @ sign." */
export function malformedStatement(type: string, problem: string): string {
  return `The value presented as ${withArticle(describeType(type))} is not one: ${problem}.`;
}

const withArticle = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);
