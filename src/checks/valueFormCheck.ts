import { OFFLINE, PERSONAL_FACT, defineCheck, weakens } from './evidence.js';
import { readPhone } from './phoneParsing.js';
import { formProblem, malformedStatement, rememberedForm } from './valueForm.js';

/**
 * Whether the presented value is a value of its type at all
 * (src/checks/valueForm.ts): an email address, a phone number, a host name,
 * a web address. A subject who types something that is none of these as
 * contact cannot be reached there, and the field was filled to get past it:
 * that is one finding against, however many checks would have had nothing
 * to read. A value of its type gets no answer from this check: being well
 * formed is what nearly every value, good or bad, is, and the other checks
 * say what there is to say about it.
 */
export const check = defineCheck(
  {
    ...OFFLINE,
    id: 'value_form',
    kind: 'malformed_value',
    looksAt: 'whether the presented value is a value of its type at all (an address, a number, a host name, a web address)',
    declares: [
      {
        disposition: 'weakens',
        strength: 'moderate',
        reason:
          'A contact value that is no value of its type reaches no one and was typed to get past the field; provisional (no measurement yet), and typos make some honest.',
      },
    ],
    artifactTypes: ['EMAIL', 'PHONE', 'DOMAIN', 'URL'],
    runsOnMalformed: true,
    trustBand: 'medium',
    dataClass: PERSONAL_FACT,
  },
  (ctx) => {
    const { presentation } = ctx;
    // Judged when it was normalised (src/checks/normalise.ts); a presentation made elsewhere is judged here.
    const remembered = presentation.malformed ?? rememberedForm(presentation);
    const problem =
      remembered !== undefined
        ? remembered
        : presentation.type === 'PHONE'
          ? readPhone(ctx).status === 'unreadable'
            ? 'it cannot be read as a phone number'
            : null
          : formProblem(presentation.type, presentation.value);
    return problem === null ? [] : weakens(malformedStatement(presentation.type, problem));
  },
);
