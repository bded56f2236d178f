import type { ValidationItem } from './problems.js';

/**
 * Strings PostgreSQL cannot store. `text` and `jsonb` refuse U+0000, and a
 * lone UTF-16 surrogate (from a JSON escape such as "\ud800") has no UTF-8
 * form. Such a string would pass the schema and then fail the write, or the
 * shared audit batch, far from the field that caused it. So every string of
 * the request (path parameters, query keys and values, body keys and values)
 * is refused here, with a 422 naming the field.
 */
const NUL = '\u0000';
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

// Deep enough for any body the schemas accept; deeper nesting is refused by them anyway.
const MAX_DEPTH = 64;

export function isStorable(text: string): boolean {
  return !text.includes(NUL) && !LONE_SURROGATE.test(text);
}

function refusal(loc: (string | number)[]): ValidationItem {
  return { loc, msg: 'Strings may not contain U+0000 or an unpaired surrogate.', type: 'string_unstorable' };
}

/** Every place in `value` holding an unstorable string (as a value or as a key), under `root`. */
export function unstorableStrings(value: unknown, root: (string | number)[]): ValidationItem[] {
  const found: ValidationItem[] = [];
  const visit = (node: unknown, loc: (string | number)[], depth: number) => {
    if (typeof node === 'string') {
      if (!isStorable(node)) found.push(refusal(loc));
      return;
    }
    if (typeof node !== 'object' || node === null || depth > MAX_DEPTH) return;
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, [...loc, i], depth + 1));
      return;
    }
    for (const [key, item] of Object.entries(node)) {
      // A key that cannot be stored is named by a storable stand-in, never echoed.
      if (!isStorable(key)) found.push(refusal([...loc, '(key)']));
      else visit(item, [...loc, key], depth + 1);
    }
  };
  visit(value, root, 0);
  return found;
}
