import { describe, expect, it } from 'vitest';
import type { ModelRenderer } from '../../src/reports/model.js';
import { chooseRenderer, renderReport } from '../../src/reports/render.js';
import type { RenderMode } from '../../src/reports/render.js';
import { renderTemplateReport } from '../../src/reports/template.js';
import { Report } from '../../src/assessment/schemas.js';
import { assessment, findings, NOW } from './fixtures.js';

const base = { assessment: assessment(), findings: findings(), lang: 'es', now: NOW };

/** A model renderer that answers with the template's report relabelled, counting its calls. */
function stubModel(answer: 'report' | 'null' | 'throw' = 'report'): ModelRenderer & { calls: number } {
  const stub = {
    promptVersion: 'stub-1',
    calls: 0,
    render(input: Parameters<ModelRenderer['render']>[0]) {
      stub.calls += 1;
      if (answer === 'throw') return Promise.reject(new Error('boom'));
      if (answer === 'null') return Promise.resolve(null);
      return Promise.resolve({ ...renderTemplateReport(input), rendered_by: 'model' as const, prompt_version: 'stub-1' });
    },
  };
  return stub;
}

// asked × ceiling × model configured -> rendered_by, or undefined for no report.
const TABLE: ReadonlyArray<[RenderMode, RenderMode, boolean, 'template' | 'model' | undefined]> = [
  ['none', 'none', false, undefined],
  ['none', 'none', true, undefined],
  ['none', 'template', false, undefined],
  ['none', 'template', true, undefined],
  ['none', 'model', false, undefined],
  ['none', 'model', true, undefined],
  ['template', 'none', false, undefined],
  ['template', 'none', true, undefined],
  ['template', 'template', false, 'template'],
  ['template', 'template', true, 'template'],
  ['template', 'model', false, 'template'],
  ['template', 'model', true, 'template'],
  ['model', 'none', false, undefined],
  ['model', 'none', true, undefined],
  ['model', 'template', false, 'template'],
  ['model', 'template', true, 'template'],
  ['model', 'model', false, 'template'],
  ['model', 'model', true, 'model'],
];

describe('renderReport: asked × ceiling × model configured', () => {
  it.each(TABLE)('given render=%s, ceiling=%s, model configured=%s, then %s', async (render, ceiling, configured, expected) => {
    // Given
    const model = configured ? stubModel() : null;
    // When
    const report = await renderReport({ model }, { ...base, render, ceiling });
    // Then
    expect(report?.rendered_by).toBe(expected);
    if (report) {
      expect(() => Report.parse(report)).not.toThrow();
      expect(report.lang).toBe('es');
      expect(report.prompt_version).toBe(expected === 'model' ? 'stub-1' : null);
    }
    expect(model?.calls ?? 0).toBe(expected === 'model' ? 1 : 0);
    expect(chooseRenderer(render, ceiling, configured)).toBe(expected ?? 'none');
  });

  it('given the model answers null, then the template writes the report and says so', async () => {
    const model = stubModel('null');
    const report = await renderReport({ model }, { ...base, render: 'model', ceiling: 'model' });
    expect(model.calls).toBe(1);
    expect(report).toMatchObject({ rendered_by: 'template', prompt_version: null });
  });

  it('given a model renderer that throws, then the template writes the report', async () => {
    const report = await renderReport({ model: stubModel('throw') }, { ...base, render: 'model', ceiling: 'model' });
    expect(report?.rendered_by).toBe('template');
  });

  it('given no deps at all, then model asks are served by the template', async () => {
    expect((await renderReport({}, { ...base, render: 'model', ceiling: 'model' }))?.rendered_by).toBe('template');
  });
});
