import type { Report } from '../assessment/schemas.js';
import type { ModelRenderer } from './model.js';
import { renderTemplateReport } from './template.js';
import type { TemplateInput } from './template.js';

/**
 * Which renderer writes a report. The tenant asks (`render`), its policy caps
 * (`ceiling`, the policy's render_ceiling) and the operator provides (a model
 * endpoint or none). An ask above the ceiling is clamped to it, never refused;
 * a `none` ceiling means no report. `model` runs only when all three allow it
 * and the model answers; otherwise the template writes the report, and its
 * `rendered_by` tells the caller which one ran.
 */

export type RenderMode = 'none' | 'template' | 'model';

const RANK: Record<RenderMode, number> = { none: 0, template: 1, model: 2 };

/** The renderer to try: the lower of ask and ceiling, with `model` only when one is configured. */
export function chooseRenderer(asked: RenderMode, ceiling: RenderMode, modelConfigured: boolean): RenderMode {
  const clamped = RANK[asked] <= RANK[ceiling] ? asked : ceiling;
  return clamped === 'model' && !modelConfigured ? 'template' : clamped;
}

export interface RenderDeps {
  model?: ModelRenderer | null;
}

export interface RenderReportInput extends TemplateInput {
  render: RenderMode;
  ceiling: RenderMode;
}

export async function renderReport(deps: RenderDeps, input: RenderReportInput): Promise<Report | undefined> {
  const chosen = chooseRenderer(input.render, input.ceiling, Boolean(deps.model));
  if (chosen === 'none') return undefined;
  if (chosen === 'model' && deps.model) {
    // The renderer answers null on failure; a throw from a foreign renderer is treated the same way.
    const written = await deps.model.render(input).catch(() => null);
    if (written) return written;
  }
  return renderTemplateReport(input);
}
