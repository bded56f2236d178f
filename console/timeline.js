// The case's timeline as a reader wants it: the case's own events in observed
// order (GET /v1/cases/{id}/timeline), with each assertion shown by its
// statement rather than its id, and the material added to the case placed at
// the time it was declared, with what was extracted from it. Both come from
// the case graph the page already holds; a material's time from
// GET /v1/material/{id}. Entries that are not case events say so (`Material`).

const ASSERTION = /^Assertion ([0-9a-f-]{36}) \((\w+)\)/;

/** `materialOf(id)` reads one material (or null); the result is a list of EventEnvelope-like entries, oldest first. */
export async function caseTimeline(events, graph, materialOf) {
  const byId = new Map(graph.nodes.map((n) => [n.node_id, n]));
  const entries = events.map((event) => {
    const summary = event.data?.summary;
    const match = typeof summary === 'string' ? ASSERTION.exec(summary) : null;
    const node = match ? byId.get(`obs_${match[1]}`) : undefined;
    return node ? { ...event, data: { ...event.data, summary: `Assertion ${node.label}` } } : event;
  });
  const materials = graph.nodes.filter((n) => n.type === 'material');
  const added = await Promise.all(
    materials.map(async (node) => {
      const materialId = node.node_id.slice('mat_'.length);
      const material = await materialOf(materialId);
      const values = graph.edges
        .filter((e) => e.from === node.node_id && e.relation === 'mentions')
        .map((e) => byId.get(e.to)?.label)
        .filter((v) => v);
      return {
        occurred_at: material?.created_at ?? '',
        type: 'Material',
        data: {
          change: 'material',
          summary: `${node.label}: ${values.length > 0 ? `extracted ${values.join(', ')}` : 'nothing extracted yet'}`,
        },
      };
    }),
  );
  // A stable merge by time: the case's own events keep their observed order.
  return [...entries, ...added]
    .map((e, i) => [e, i])
    .sort(([a, i], [b, j]) => (a.occurred_at || '').localeCompare(b.occurred_at || '') || i - j)
    .map(([e]) => e);
}
