/**
 * Matches a request path against the OpenAPI path templates of the contract.
 * Literal segments win over parameters, so `/v1/observations/batch` is never
 * taken for an id. Answers which operation matched, or which methods the path
 * allows (for 405), or nothing (404).
 */
export interface RouteMatch<T> {
  route: T;
  params: Record<string, string>;
}

export type RouteLookup<T> =
  { kind: 'match'; match: RouteMatch<T> } | { kind: 'method-not-allowed'; allow: string[] } | { kind: 'not-found' };

interface Entry<T> {
  method: string;
  segments: string[];
  literalCount: number;
  route: T;
}

export interface Router<T> {
  add(method: string, template: string, route: T): void;
  lookup(method: string, path: string): RouteLookup<T>;
}

export function createRouter<T>(): Router<T> {
  const bySegmentCount = new Map<number, Entry<T>[]>();

  return {
    add(method, template, route) {
      const segments = split(template);
      const entry = { method: method.toUpperCase(), segments, literalCount: segments.filter((s) => !isParam(s)).length, route };
      const list = bySegmentCount.get(segments.length) ?? [];
      list.push(entry);
      list.sort((a, b) => b.literalCount - a.literalCount);
      bySegmentCount.set(segments.length, list);
    },
    lookup(method, path) {
      const parts = split(path);
      const candidates = bySegmentCount.get(parts.length) ?? [];
      const allow = new Set<string>();
      let bestShape: string[] | null = null;
      for (const entry of candidates) {
        const params = matchSegments(entry.segments, parts);
        if (!params) continue;
        // Only the most specific template shape decides 405s (a literal beats a parameter).
        if (bestShape && bestShape.join('/') !== entry.segments.join('/')) continue;
        bestShape = entry.segments;
        // HEAD is answered by the GET route (RFC 9110 9.3.2); the pipeline sends the head only.
        const wanted = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
        if (entry.method === wanted) return { kind: 'match', match: { route: entry.route, params } };
        allow.add(entry.method);
        if (entry.method === 'GET') allow.add('HEAD');
      }
      return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow].sort() } : { kind: 'not-found' };
    },
  };
}

function split(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

function isParam(segment: string): boolean {
  return segment.startsWith('{') && segment.endsWith('}');
}

function matchSegments(template: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i += 1) {
    const t = template[i]!;
    const p = parts[i]!;
    if (isParam(t)) {
      let value: string;
      try {
        value = decodeURIComponent(p);
      } catch {
        return null;
      }
      params[t.slice(1, -1)] = value;
    } else if (t !== p) return null;
  }
  return params;
}
