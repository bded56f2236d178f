// The console's one door to the API: same origin, the key in an Authorization
// header (never in a URL), JSON in and out, problems turned into readable errors.

export class ApiError extends Error {
  constructor(status, problem) {
    super(describeProblem(status, problem));
    this.status = status;
    this.problem = problem;
  }
}

function describeProblem(status, problem) {
  if (!problem || typeof problem !== 'object') return `HTTP ${status}`;
  const where = Array.isArray(problem.detail)
    ? problem.detail.map((d) => `${(d.loc ?? []).join('.')}: ${d.msg ?? ''}`).join('; ')
    : (problem.detail ?? '');
  const rule = problem.rule ? ` (rule ${problem.rule})` : '';
  return `${problem.title ?? `HTTP ${status}`}${rule}${where ? `: ${where}` : ''}`;
}

/** `keyOf` returns the key held in memory; it is read at each call, so forgetting it takes effect at once. */
export function createApi(keyOf) {
  async function call(method, path, body) {
    const headers = { Authorization: `Bearer ${keyOf()}` };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
    const text = await res.text();
    const parsed = text ? safeJson(text) : null;
    if (!res.ok) throw new ApiError(res.status, parsed);
    return parsed;
  }

  /** A binary download (the export bundle), fetched with the key and handed to the page as a blob. */
  async function blob(path) {
    const res = await fetch(path, { headers: { Authorization: `Bearer ${keyOf()}` }, cache: 'no-store' });
    if (!res.ok) throw new ApiError(res.status, safeJson(await res.text()));
    return res.blob();
  }

  return { call, blob, get: (p) => call('GET', p), post: (p, b) => call('POST', p, b ?? {}) };
}

function safeJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return { title: text.slice(0, 200) };
  }
}
