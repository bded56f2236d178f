/**
 * Finds the parts of a label that may be one edit (an inserted, dropped,
 * substituted or swapped character) away from a name, without trying every
 * part against every name.
 *
 * Pigeonhole on each name's halves: with h = ⌊L/2⌋ for a name of length L,
 * one edit touches at most two neighbouring characters, so it leaves intact
 * either the name's first h - 1 characters (the edit is at or after h - 1) or
 * its last L - h - 1 (the edit is before h). A part one edit from the name
 * therefore starts with that prefix or ends with that suffix. The label is
 * read once per start and end position and per key length (a dozen or so),
 * and only the names found there are compared in full by the caller. The
 * work grows with the label's length, not with its square times the number
 * of window lengths, which bounds what a hostile 63-character label costs.
 */
export interface Window<K> {
  start: number;
  length: number;
  known: K;
  /** The name's position in the list given to the index: ties go to the earlier one. */
  order: number;
}

interface Entry<K> {
  known: K;
  order: number;
  length: number;
}

export interface TypoWindowIndex<K> {
  /** Every part of `label` with a length in [minLength, maxLength] that starts with a name's prefix key or ends with its suffix key, paired with that name. */
  candidates(label: string, minLength: number, maxLength: number): Window<K>[];
}

export function createTypoWindowIndex<K>(names: readonly K[], labelOf: (k: K) => string): TypoWindowIndex<K> {
  const prefixes = new Map<string, Entry<K>[]>();
  const suffixes = new Map<string, Entry<K>[]>();
  names.forEach((known, order) => {
    const label = labelOf(known);
    const half = label.length >> 1;
    const entry = { known, order, length: label.length };
    add(prefixes, label.slice(0, half - 1), entry);
    add(suffixes, label.slice(half + 1), entry);
  });
  const prefixLengths = lengthsOf(prefixes);
  const suffixLengths = lengthsOf(suffixes);

  return {
    candidates(label, minLength, maxLength) {
      const out: Window<K>[] = [];
      const push = (start: number, length: number, entry: Entry<K>) => {
        if (length >= minLength && length <= maxLength && start >= 0 && start + length <= label.length)
          out.push({ start, length, known: entry.known, order: entry.order });
      };
      for (let at = 0; at < label.length; at += 1) {
        for (const keyLength of prefixLengths) {
          if (at + keyLength > label.length) break;
          for (const entry of prefixes.get(label.slice(at, at + keyLength)) ?? []) {
            for (const length of [entry.length - 1, entry.length, entry.length + 1]) push(at, length, entry);
          }
        }
        const end = at + 1;
        for (const keyLength of suffixLengths) {
          if (keyLength > end) break;
          for (const entry of suffixes.get(label.slice(end - keyLength, end)) ?? []) {
            for (const length of [entry.length - 1, entry.length, entry.length + 1]) push(end - length, length, entry);
          }
        }
      }
      return out;
    },
  };
}

function add<K>(index: Map<string, Entry<K>[]>, key: string, entry: Entry<K>): void {
  const list = index.get(key);
  if (list) list.push(entry);
  else index.set(key, [entry]);
}

function lengthsOf<K>(index: Map<string, Entry<K>[]>): number[] {
  return [...new Set([...index.keys()].map((key) => key.length))].sort((a, b) => a - b);
}
