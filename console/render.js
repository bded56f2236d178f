// Small DOM builders. Every value from the API goes in as text (textContent),
// never as markup, so nothing a subject or a note contains can run here.

export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

export function renderFacts(dl, facts) {
  dl.replaceChildren(...facts.flatMap(([term, value]) => [el('dt', term), el('dd', value)]));
}

export function renderEvents(list, events) {
  list.replaceChildren(...events.map(eventItem));
}

export function appendEvent(list, event) {
  list.prepend(eventItem(event));
}

function eventItem(event) {
  const item = el('li');
  item.append(el('time', event.occurred_at ?? ''), el('strong', ` ${event.type ?? 'event'} `), el('span', summarise(event)));
  return item;
}

function summarise(event) {
  const data = event.data ?? {};
  const parts = [data.change, data.summary, data.state, data.score !== undefined ? `score ${data.score}` : null].filter((p) => p);
  return parts.join(' · ');
}

/** Each assessment as a bar: the interval as its span, the score as a mark within it. */
export function renderLedger(list, entries) {
  list.replaceChildren(
    ...entries.map((entry) => {
      const a = entry.assessment;
      const item = el('li');
      const bar = el('div', null, 'bar');
      const span = el('div', null, 'interval');
      // CSSOM properties, not style attributes: allowed under the page's style-src 'self'.
      span.style.left = `${a.low}%`;
      span.style.width = `${Math.max(1, a.high - a.low)}%`;
      const mark = el('div', null, 'score');
      mark.style.left = `${a.score}%`;
      bar.append(span, mark);
      item.append(
        el(
          'span',
          `#${entry.sequence} · ${a.score} [${a.low}-${a.high}] · ${a.methodology_version}${a.preliminary ? ' · preliminary' : ''}`,
          'ledger-text',
        ),
        bar,
      );
      return item;
    }),
  );
}
