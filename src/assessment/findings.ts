import { connectionsFrom } from '../checks/graphCheck.js';
import type { Absence, GraphNeighbourhood, Signal, Tier } from '../checks/types.js';
import { mintFinding } from '../scoring/index.js';
import type { CoverageGap } from './plan.js';

/**
 * The findings of an assessment as a reviewer reads them: every signal as a
 * finding (statement written by its check, never naming a source), every
 * absence, the connections in the tenant's graph, and how much of the
 * possible checking was done.
 */
export interface CoverageFacts {
  tierCeiling: Tier;
  checksRun: number;
  checksAnswered: number;
  gaps: CoverageGap[];
}

export function buildFindings(input: {
  inquiryId: string;
  assessmentId: string;
  subject: { type: string; value: string }[];
  signals: readonly Signal[];
  absences: readonly Absence[];
  graph: GraphNeighbourhood | undefined;
  coverage: CoverageFacts;
  generatedAt: string;
}) {
  return {
    inquiry_id: input.inquiryId,
    assessment_id: input.assessmentId,
    subject: input.subject.map((p) => ({ type: p.type, value: p.value })),
    findings: input.signals.map((s) => mintFinding(input.inquiryId, s)),
    absences: input.absences.map((a) => ({ about: a.about, about_type: a.about_type, kind: a.kind, reason: a.reason })),
    connections: connectionsFrom(input.graph),
    coverage: {
      tier_ceiling: input.coverage.tierCeiling,
      checks_run: input.coverage.checksRun,
      checks_answered: input.coverage.checksAnswered,
      checks_unanswered: input.coverage.checksRun - input.coverage.checksAnswered,
      ...(input.coverage.gaps.length > 0 ? { gaps: input.coverage.gaps } : {}),
    },
    generated_at: input.generatedAt,
  };
}
