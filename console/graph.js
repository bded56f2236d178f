// The case graph drawn with Cytoscape.js (loaded beside this module as the
// library's own distribution file). Node labels and provenance come from the
// API as data: Cytoscape draws them on a canvas, never as markup.
//
// Readable by construction (issue 38): the layout counts each node's label as
// part of its size, so labels are spaced like nodes and do not overlap; long
// labels wrap instead of running into their neighbours; an edge shows its
// relation in full on a plain background, with its weight and provenance in
// the text list beside the drawing.

const COLOURS = {
  entity: '#37474f',
  EMAIL: '#1565c0',
  PHONE: '#2e7d32',
  DOMAIN: '#6a1b9a',
  URL: '#8e24aa',
  IP: '#ef6c00',
  ACCOUNT: '#00838f',
  NAME: '#5d4037',
  assertion: '#c62828',
  material: '#795548',
};

const LABEL_BACKGROUND = { 'text-background-color': '#ffffff', 'text-background-opacity': 0.9, 'text-background-padding': 2 };

const STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      'font-size': 10,
      'text-wrap': 'wrap',
      'text-max-width': 200,
      'text-valign': 'bottom',
      'text-margin-y': 4,
      'background-color': 'data(colour)',
      width: 22,
      height: 22,
      ...LABEL_BACKGROUND,
    },
  },
  { selector: 'node[type = "entity"]', style: { shape: 'round-rectangle', width: 30, height: 30, 'font-weight': 'bold' } },
  { selector: 'node[type = "material"]', style: { shape: 'rectangle' } },
  { selector: 'node[type = "assertion"]', style: { shape: 'diamond' } },
  {
    selector: 'edge',
    style: {
      width: 'data(width)',
      'line-color': '#90a4ae',
      'curve-style': 'bezier',
      'target-arrow-shape': 'triangle',
      'target-arrow-color': '#90a4ae',
      label: 'data(label)',
      'font-size': 9,
      'text-rotation': 'autorotate',
      color: '#37474f',
      ...LABEL_BACKGROUND,
    },
  },
];

// Rows, entities first: the values that identify them and the assertions about them below, the material
// that names those values below that. Deterministic, and spaced by each node's label (avoidOverlap with
// the labels counted in), so no two labels are drawn over each other however the case grows.
const layoutFor = (cy) => ({
  name: 'breadthfirst',
  directed: false,
  animate: false,
  padding: 30,
  spacingFactor: 1.1,
  roots: cy.nodes('[type = "entity"]').length > 0 ? cy.nodes('[type = "entity"]') : undefined,
  avoidOverlap: true,
  nodeDimensionsIncludeLabels: true,
});

let view = null;

/** Draws (or redraws) the graph; returns the number of nodes and edges drawn. */
export function drawGraph(container, graph, legend) {
  const cytoscape = window.cytoscape;
  if (typeof cytoscape !== 'function') throw new Error('the graph library did not load');
  const elements = [
    ...graph.nodes.map((n) => ({
      data: { id: n.node_id, label: n.label, type: n.type, colour: COLOURS[n.type] ?? '#607d8b', provenance: n.provenance_class },
    })),
    ...graph.edges.map((e) => ({
      data: { id: e.edge_id, source: e.from, target: e.to, width: 1 + 4 * Math.max(0, Math.min(1, e.weight)), label: e.relation },
    })),
  ];
  if (view) view.destroy();
  view = cytoscape({ container, elements, style: STYLE, layout: { name: 'preset' } });
  view.layout(layoutFor(view)).run();
  container.dataset.nodes = String(graph.nodes.length);
  container.dataset.edges = String(graph.edges.length);
  container.dataset.labelOverlaps = String(labelOverlaps(view));
  renderLegend(legend, graph);
  return { nodes: graph.nodes.length, edges: graph.edges.length };
}

/** How many pairs of node labels overlap as drawn (0 when the layout did its job); read by the console's test. */
function labelOverlaps(cy) {
  const boxes = cy.nodes().map((n) => n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }));
  let overlaps = 0;
  for (let i = 0; i < boxes.length; i += 1) {
    for (let j = i + 1; j < boxes.length; j += 1) {
      const a = boxes[i];
      const b = boxes[j];
      if (a.x1 < b.x2 && b.x1 < a.x2 && a.y1 < b.y2 && b.y1 < a.y2) overlaps += 1;
    }
  }
  return overlaps;
}

// A text list beside the drawing, for keyboards and screen readers: the nodes, then each edge with its weight and provenance.
function renderLegend(legend, graph) {
  const labels = new Map(graph.nodes.map((n) => [n.node_id, n.label]));
  const item = (text) => {
    const li = document.createElement('li');
    li.textContent = text;
    return li;
  };
  legend.replaceChildren(
    ...graph.nodes.map((n) => item(`${n.type}: ${n.label} (${n.provenance_class})`)),
    ...graph.edges.map((e) =>
      item(
        `${labels.get(e.from) ?? e.from} ${e.relation} ${labels.get(e.to) ?? e.to} (weight ${e.weight.toFixed(2)}, ${e.provenance_class})`,
      ),
    ),
  );
}
