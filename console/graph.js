// The case graph drawn with Cytoscape.js (loaded beside this module as the
// library's own distribution file). Node labels and provenance come from the
// API as data: Cytoscape draws them on a canvas, never as markup.

const COLOURS = {
  entity: '#37474f', EMAIL: '#1565c0', PHONE: '#2e7d32', DOMAIN: '#6a1b9a', URL: '#8e24aa',
  IP: '#ef6c00', ACCOUNT: '#00838f', NAME: '#5d4037', assertion: '#c62828',
};

const STYLE = [
  {
    selector: 'node',
    style: {
      label: 'data(label)', 'font-size': 10, 'text-wrap': 'ellipsis', 'text-max-width': 140,
      'text-valign': 'bottom', 'text-margin-y': 4, 'background-color': 'data(colour)', width: 22, height: 22,
    },
  },
  { selector: 'node[type = "entity"]', style: { shape: 'round-rectangle', width: 30, height: 30 } },
  {
    selector: 'edge',
    style: {
      width: 'data(width)', 'line-color': '#90a4ae', 'curve-style': 'bezier', label: 'data(label)',
      'font-size': 8, 'text-rotation': 'autorotate', color: '#455a64',
    },
  },
];

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
      data: {
        id: e.edge_id, source: e.from, target: e.to, width: 1 + 4 * Math.max(0, Math.min(1, e.weight)),
        label: `${e.relation} · ${e.weight.toFixed(2)} · ${e.provenance_class}`,
      },
    })),
  ];
  if (view) view.destroy();
  view = cytoscape({ container, elements, style: STYLE, layout: { name: 'cose', animate: false, padding: 20 } });
  container.dataset.nodes = String(graph.nodes.length);
  container.dataset.edges = String(graph.edges.length);
  renderLegend(legend, graph.nodes);
  return { nodes: graph.nodes.length, edges: graph.edges.length };
}

// A text list of the nodes beside the drawing, for keyboards and screen readers.
function renderLegend(legend, nodes) {
  legend.replaceChildren(...nodes.map((n) => {
    const item = document.createElement('li');
    item.textContent = `${n.type}: ${n.label} (${n.provenance_class})`;
    return item;
  }));
}
