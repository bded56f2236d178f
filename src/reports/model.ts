import { z } from 'zod';
import { Report } from '../assessment/schemas.js';
import type { Report as ReportOut } from '../assessment/schemas.js';
import { toModelPayload } from './modelPayload.js';
import { renderTemplateReport } from './template.js';
import type { TemplateInput } from './template.js';

/**
 * The model renderer: asks the operator's model endpoint to write the
 * sections the template would write, in the same language and with the same
 * keys. Everything that must be exact stays the template's: which findings a
 * section rests on, the share card, the ids and timestamps. The model only
 * supplies titles and prose.
 *
 * Any failure (timeout, network, status, oversize, not JSON, wrong shape,
 * different sections) answers null: the caller falls back to the template
 * and the reply's `rendered_by` says so. Nothing about the failure is thrown.
 */

export type ModelFailure =
  'api_key_missing' | 'timeout' | 'network' | 'http_status' | 'too_large' | 'not_json' | 'invalid_reply' | 'sections_mismatch';

export interface ModelRendererOptions {
  endpoint: string;
  /** Name of the environment variable holding the endpoint's bearer key; no header when unset. */
  apiKeyEnv?: string;
  timeoutMs: number;
  promptVersion: string;
  /** Where apiKeyEnv is read; defaults to process.env (read once, here). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Told why a render fell back; never given the payload or the reply. */
  onFailure?: (reason: ModelFailure, detail?: string) => void;
}

export interface ModelRenderer {
  readonly promptVersion: string;
  render(input: TemplateInput): Promise<ReportOut | null>;
}

/** What the endpoint must answer: closed, bounded, nothing more. */
export const ModelReply = z.strictObject({
  sections: z
    .array(
      z.strictObject({
        key: z.string().min(1).max(64),
        // A title is a heading; 20 000 characters of body is far beyond any section the template writes.
        title: z.string().trim().min(1).max(200),
        body: z.string().trim().min(1).max(20_000),
      }),
    )
    .min(1)
    .max(16),
});

/** A reply larger than this is refused unread: five sections of prose never approach it. */
const MAX_REPLY_BYTES = 256 * 1024;

class ModelRenderError extends Error {
  constructor(
    readonly reason: ModelFailure,
    detail?: string,
  ) {
    super(detail ?? reason);
  }
}

async function readBounded(res: Response, limit: number): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > limit) throw new ModelRenderError('too_large');
  if (!res.body) return '';
  // fetch's body is a byte stream; undici types it ReadableStream<any>.
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel();
      throw new ModelRenderError('too_large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function classify(err: unknown): ModelRenderError {
  if (err instanceof ModelRenderError) return err;
  if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return new ModelRenderError('timeout');
  return new ModelRenderError('network', err instanceof Error ? err.message : undefined);
}

/** The model's sections in the template's order, with the template's finding_ids; null when the keys differ. */
function mergeSections(template: ReportOut, reply: z.infer<typeof ModelReply>): ReportOut['sections'] | null {
  const byKey = new Map(reply.sections.map((s) => [s.key, s]));
  if (byKey.size !== reply.sections.length || byKey.size !== template.sections.length) return null;
  const merged: ReportOut['sections'] = [];
  for (const t of template.sections) {
    const m = byKey.get(t.key);
    if (!m) return null;
    merged.push({ key: t.key, title: m.title, body: m.body, finding_ids: t.finding_ids });
  }
  return merged;
}

export function createModelRenderer(options: ModelRendererOptions): ModelRenderer {
  const env = options.env ?? process.env;
  const apiKey = options.apiKeyEnv ? env[options.apiKeyEnv] : undefined;
  const fail = (reason: ModelFailure, detail?: string): null => {
    options.onFailure?.(reason, detail);
    return null;
  };

  async function call(template: ReportOut, input: TemplateInput): Promise<ReportOut> {
    const payload = toModelPayload({
      promptVersion: options.promptVersion,
      lang: template.lang ?? 'en',
      assessment: input.assessment,
      findings: input.findings ?? null,
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (apiKey) headers.authorization = `Bearer ${apiKey}`;
    // One signal covers connecting, waiting and reading the body: timeoutMs bounds the whole call.
    const signal = AbortSignal.timeout(options.timeoutMs);
    const res = await fetch(options.endpoint, { method: 'POST', headers, body: JSON.stringify(payload), signal, redirect: 'error' });
    if (!res.ok) {
      await res.body?.cancel().catch(() => undefined);
      throw new ModelRenderError('http_status', String(res.status));
    }
    const text = await readBounded(res, MAX_REPLY_BYTES);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ModelRenderError('not_json');
    }
    const reply = ModelReply.safeParse(json);
    if (!reply.success) throw new ModelRenderError('invalid_reply');
    const sections = mergeSections(template, reply.data);
    if (!sections) throw new ModelRenderError('sections_mismatch');
    const report = Report.safeParse({ ...template, rendered_by: 'model', prompt_version: options.promptVersion, sections });
    if (!report.success) throw new ModelRenderError('invalid_reply');
    return report.data;
  }

  return {
    promptVersion: options.promptVersion,
    async render(input) {
      if (options.apiKeyEnv && !apiKey) return fail('api_key_missing', options.apiKeyEnv);
      try {
        return await call(renderTemplateReport(input), input);
      } catch (err) {
        const e = classify(err);
        return fail(e.reason, e.reason === 'network' ? e.message : undefined);
      }
    },
  };
}
