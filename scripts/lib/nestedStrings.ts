/**
 * Every string in a nested value, depth first: how the data scripts and the
 * false-alarm bench read ccxt's `urls`, which nests an exchange's addresses
 * by purpose (www, doc, api...) in objects and arrays.
 */
export function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}
