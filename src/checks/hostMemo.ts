/**
 * A bounded memo for a check's answer that depends on a host alone (and the
 * words naming the presented value's type): most inquiries name a handful of
 * popular mail domains, and working out again, for every inquiry, that
 * `gmail.com` imitates no one costs the look-alike check its tables' walk each
 * time. The answer must be a pure function of its key and never mutated by its
 * readers (signalFor copies what it needs into a new signal). The oldest key
 * is forgotten first.
 */
export function hostMemo<V>(limit: number, compute: (host: string, what: string) => V): (host: string, what: string) => V {
  const held = new Map<string, V>();
  return (host, what) => {
    const key = `${what}\u0000${host}`;
    const known = held.get(key);
    if (known !== undefined) return known;
    const value = compute(host, what);
    held.set(key, value);
    if (held.size > limit) held.delete(held.keys().next().value!);
    return value;
  };
}
