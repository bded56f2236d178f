// The investigator's console: find a case, an inquiry or an entity, and work
// one case at a time; every action a call of the public API with the keys
// this page holds in memory.
import { ApiError, createApi } from './api.js';
import { drawGraph } from './graph.js';
import { appendEvent, el, renderEvents, renderFacts, renderLedger } from './render.js';
import { followStream } from './stream.js';
import { caseTimeline } from './timeline.js';

let key = null;
// Optional: an admin key reads the audit trail, the only list of a tenant's inquiries the API gives (cases have GET /v1/cases).
let adminKey = null;
const api = createApi(() => key);
const adminApi = createApi(() => adminKey);
// Entity ids to their names in the latest graph (the ledger's choices show these, not bare ids).
let entityNames = new Map();
let lastGraph = { nodes: [], edges: [] };
const $ = (id) => document.getElementById(id);
let current = null;
let stream = null;
let refreshTimer = null;

function say(message, isError = false) {
  const status = $('status');
  status.textContent = message;
  status.classList.toggle('error', isError);
}

/** Runs a user action: says what failed instead of failing silently. */
function action(form, run) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    await guarded(run);
  });
}

async function guarded(run) {
  try {
    await run();
  } catch (error) {
    say(error.message, true);
  }
}

const value = (id) => $(id).value.trim();
const casePath = (suffix = '') => `/v1/cases/${current.case_id}${suffix}`;

action($('key-form'), async () => {
  key = $('key-input').value.trim();
  adminKey = $('admin-key-input').value.trim() || null;
  // The keys leave the form at once: they live in this module's memory and nowhere else.
  $('key-input').value = '';
  $('admin-key-input').value = '';
  $('find-section').hidden = false;
  $('open-section').hidden = false;
  const typesRead = await offerRegisteredTypes();
  say(
    `Key held in memory${adminKey ? ', with an admin key for the lists' : ''}. Find a case, an inquiry or an entity, or open a case.` +
      (typesRead === true ? '' : ` The registry's value types could not be read (${typesRead}): ids and guessed values only.`),
  );
});

/**
 * The value types offered are the ones the registry lists for this key (GET
 * /v1/registry/artifact-types), none other. True, or why they could not be
 * read (a key without the registry scope): then only ids and guessed types.
 */
async function offerRegisteredTypes() {
  const select = $('find-type');
  const chosen = select.value;
  let types = [];
  let read = true;
  try {
    types = await api.get('/v1/registry/artifact-types');
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    read = error.message;
  }
  select.replaceChildren(el('option', 'id, or guessed from the value'), ...types.map((t) => el('option', t.id)));
  select.options[0].value = '';
  select.value = types.some((t) => t.id === chosen) ? chosen : '';
  return read;
}

action($('find-form'), async () => {
  const typed = value('find-id');
  const type = $('find-type').value || (UUID.test(typed) ? null : guessType(typed));
  if (type === null) await findById(typed);
  else await findByValue(type, typed, value('find-country').toUpperCase());
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The type a value plainly is (an address, a number, a site), or null: then it is taken for an id. */
function guessType(text) {
  if (/^https?:\/\//i.test(text)) return 'URL';
  if (/^[^\s@]+@[^\s@]+$/.test(text)) return 'EMAIL';
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(text) || (/^[0-9a-f:]+$/i.test(text) && text.includes('::'))) return 'IP';
  if (/^\+?[\d\s().-]{6,}$/.test(text) && /\d{6}/.test(text.replace(/\D/g, ''))) return 'PHONE';
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,}\.?$/i.test(text)) return 'DOMAIN';
  return null;
}

/**
 * GET /v1/entities, the finding extension: the service normalises the value as
 * it does an inquiry's, so it may be typed as the subject wrote it. One entity
 * opens at once; several (a value presented beside many anchors) are listed.
 */
async function findByValue(type, text, country) {
  const query = new URLSearchParams({ type, value: text });
  if (country) query.set('country', country);
  const found = await api.get(`/v1/entities?${query}`);
  // Each named by the value it was first known by, not by its id.
  const entities = await Promise.all(found.entities.map((m) => api.get(`/v1/entities/${encodeURIComponent(m.entity_id)}`)));
  $('entity-matches').replaceChildren(
    ...found.entities.map((m, i) => {
      const [main, ...more] = entities[i].presentations;
      const name = main ? `${main.type} ${main.value}${more.length > 0 ? ` (+${more.length})` : ''}` : `entity ${m.entity_id}`;
      const how = m.held_as === 'anchor' ? 'resolved on it' : `${found.type} ${found.normalised} presented beside`;
      return pick(`${name} · ${how} · since ${m.first_seen_at.slice(0, 10)}`, () => showEntity(entities[i]));
    }),
  );
  if (found.entities.length === 0) throw new Error(`No entity of this tenant and mode carries ${found.type} ${found.normalised}.`);
  if (found.entities.length === 1) {
    await showEntity(entities[0]);
    return;
  }
  say(`${found.entities.length} entities carry ${found.type} ${found.normalised}: choose one.`);
}

/**
 * An id of any of the three, asked where it most likely is first, so an
 * inquiry's id is not first refused as a case's (a 404 the browser logs):
 * cases have random (version 4) UUIDs, inquiries and entities time-ordered
 * (version 7) ones (src/platform/ids.ts). Each other door is still tried on a
 * 404 (or 403, not this key's scope), in case an id was made otherwise.
 */
async function findById(id) {
  if (!UUID.test(id))
    throw new Error('No case, inquiry or entity has that id: ids are UUIDs. To find an entity by a value, choose its type.');
  const path = encodeURIComponent(id);
  const caseTry = [`/v1/cases/${path}`, (c) => showCase(c.case_id)];
  const inquiryTry = [`/v1/inquiries/${path}`, showInquiry];
  const entityTry = [`/v1/entities/${path}`, showEntity];
  const tries = id[14] === '7' ? [inquiryTry, entityTry, caseTry] : [caseTry, inquiryTry, entityTry];
  for (const [url, show] of tries) {
    try {
      const found = await api.get(url);
      await show(found);
      return;
    } catch (error) {
      // Not this kind (404), not an id of this shape (422), or not this key's scope (403): try the next.
      if (!(error instanceof ApiError) || ![403, 404, 422].includes(error.status)) throw error;
    }
  }
  throw new Error('No case, inquiry or entity of this tenant and mode has that id. To find an entity by a value, choose its type.');
}

/** Ids of what `operation` created, newest first, from the audit trail (admin key). */
async function createdBy(operation, status, max) {
  if (!adminKey)
    throw new Error(
      'Listing inquiries needs an admin key of the same tenant and mode: the audit trail is the only list of them the API gives.',
    );
  const rows = [];
  let after = null;
  for (let page = 0; page < 50; page += 1) {
    const query = new URLSearchParams({ operation, status: String(status), limit: '1000' });
    if (after) query.set('after', after);
    const batch = await adminApi.get(`/v1/admin/audit?${query}`);
    rows.push(...batch);
    if (batch.length < 1000) break;
    after = batch[batch.length - 1].audit_id;
  }
  const ids = [
    ...new Set(
      rows
        .filter((r) => r.target_id)
        .map((r) => r.target_id)
        .reverse(),
    ),
  ];
  return ids.slice(0, max);
}

function pick(text, onPick) {
  const button = el('button', text);
  button.type = 'button';
  button.addEventListener('click', () => guarded(onPick));
  const item = el('li');
  item.append(button);
  return item;
}

$('list-cases').addEventListener('click', () =>
  guarded(async () => {
    // GET /v1/cases, the listing extension: the case key alone, newest first.
    const cases = await api.get('/v1/cases?limit=50');
    $('case-list').replaceChildren(
      ...cases.map((c) =>
        pick(`${c.title} · ${c.state}${c.legal_hold ? ' · on hold' : ''} · opened ${c.created_at.slice(0, 16).replace('T', ' ')}`, () =>
          showCase(c.case_id),
        ),
      ),
    );
    say(`${cases.length} case(s).`);
  }),
);

$('list-inquiries').addEventListener('click', () =>
  guarded(async () => {
    const ids = await createdBy('createInquiry', 200, 20);
    const inquiries = (await Promise.all(ids.map((id) => api.get(`/v1/inquiries/${id}`).catch(() => null)))).filter((i) => i);
    $('inquiry-list').replaceChildren(...inquiries.map((i) => pick(inquiryTitle(i), () => showInquiry(i))));
    say(`${inquiries.length} recent inquiry(ies).`);
  }),
);

function inquiryTitle(inquiry) {
  const a = inquiry.assessment;
  const subject = (inquiry.findings?.subject ?? []).map((p) => p.value).join(', ');
  return `${subject || inquiry.inquiry_id} · ${a.score} [${a.low}-${a.high}] · ${inquiry.status}`;
}

async function showInquiry(inquiry) {
  const a = inquiry.assessment;
  $('inquiry-section').hidden = false;
  renderFacts($('inquiry-facts'), [
    ['Inquiry', inquiry.inquiry_id],
    ['Status', inquiry.status],
    ['Subject', (inquiry.findings?.subject ?? []).map((p) => `${p.type} ${p.value}`).join(', ') || 'not shown to this key'],
    ['Score', `${a.score} [${a.low}-${a.high}]${a.preliminary ? ' (preliminary)' : ''}`],
    ['Label', a.label ? `${a.label.value} (policy ${a.label.policy_version})` : 'none'],
    ['Evidence', `${a.evidence.signals} signal(s), ${a.evidence.failed_signals} failed, ${a.evidence.contradictions} contradiction(s)`],
    ['Method', a.methodology_version],
    ['As of', a.as_of],
    ['Entity', a.entity_id ?? 'none'],
  ]);
  const findings = inquiry.findings?.findings ?? [];
  const absences = inquiry.findings?.absences ?? [];
  $('inquiry-findings').replaceChildren(
    // Weakening and supporting findings stand out from neutral ones, as on the session page.
    ...findings.map((f) => el('li', `${f.disposition ?? 'finding'} · ${f.about}: ${f.statement}`, f.disposition ?? 'neutral')),
    ...absences.map((x) => el('li', `absence (${x.kind}) · ${x.about}: ${x.reason}`, 'absence')),
  );
  $('inquiry-entity').hidden = !a.entity_id;
  $('inquiry-entity').dataset.entity = a.entity_id ?? '';
  say(`Inquiry ${inquiry.inquiry_id}: ${inquiry.status}.`);
}

$('inquiry-entity').addEventListener('click', () =>
  guarded(async () => {
    await showEntity(await api.get(`/v1/entities/${encodeURIComponent($('inquiry-entity').dataset.entity)}`));
  }),
);

async function showEntity(entity) {
  $('entity-section').hidden = false;
  const latest = entity.latest_assessment;
  renderFacts($('entity-facts'), [
    ['Entity', entity.entity_id],
    ['Known by', entity.presentations.map((p) => `${p.type} ${p.value}`).join(', ') || 'no value of this tenant'],
    ['Since', entity.created_at],
    ['Latest', latest ? `${latest.score} [${latest.low}-${latest.high}] as of ${latest.as_of}` : 'no assessment'],
  ]);
  // ledger_url is absolute (TAS_PUBLIC_URL); the page only talks to its own origin.
  renderLedger($('entity-ledger'), await api.get(new URL(entity.ledger_url, window.location.href).pathname));
  say(`Entity ${entity.entity_id}.`);
}

action($('open-form'), async () => {
  const budget = Number($('open-budget').value);
  const opened = await api.post('/v1/cases', {
    title: value('open-title'),
    purpose: value('open-purpose'),
    budget,
    authorization: { kind: $('open-auth-kind').value, reference: value('open-auth-ref'), issued_by: value('open-auth-issuer') },
  });
  await showCase(opened.case_id);
  say(`Case ${opened.case_id} opened.`);
});

action($('load-form'), async () => {
  await showCase(value('load-id'));
});

async function showCase(caseId) {
  current = await api.get(`/v1/cases/${encodeURIComponent(caseId)}`);
  $('case-section').hidden = false;
  renderCase(current);
  await refreshGraph();
  await refreshTimeline();
  followCase();
  say(`Case ${current.title}: ${current.state}.`);
}

function renderCase(c) {
  $('case-title').textContent = c.title;
  renderFacts($('case-facts'), [
    ['Case', c.case_id],
    ['State', c.state],
    ['Legal hold', c.legal_hold ? 'yes' : 'no'],
    ['Purpose', c.purpose],
    ['Authorization', `${c.authorization.kind} ${c.authorization.reference} (${c.authorization.issued_by})`],
    ['Budget', `${c.budget.spent} spent of ${c.budget.limit}, ${c.budget.remaining} remaining`],
    ['Members', c.members.map((m) => `${m.principal} (${m.role})`).join(', ') || 'none'],
    ['Entities', String(c.entity_ids.length)],
  ]);
  $('member-list').replaceChildren(...c.members.map(memberItem));
  $('case-section').dataset.state = c.state;
  fillLedgerChoices();
}

/** The case's entities by name (from the latest graph), each with its id for the call. */
function fillLedgerChoices() {
  if (!current) return;
  const select = $('ledger-entity');
  const chosen = select.value;
  select.replaceChildren(
    ...current.entity_ids.map((id) => {
      const name = entityNames.get(id);
      const option = el('option', name ? `${name} · ${id.slice(0, 8)}` : id);
      option.value = id;
      return option;
    }),
  );
  if (current.entity_ids.includes(chosen)) select.value = chosen;
}

async function refreshCase() {
  const fresh = await api.get(casePath());
  // A refresh that a live event started may answer after a command the page made since: an older
  // case (a lower sequence) than the one shown is dropped, never drawn over the newer one.
  if (current && fresh.case_id === current.case_id && fresh.sequence < current.sequence) return;
  current = fresh;
  renderCase(current);
  // The timeline names assertions and material by what the graph knows of them: the graph first.
  await refreshGraph();
  await refreshTimeline();
}

async function refreshGraph() {
  const graph = await api.get(casePath('/graph'));
  lastGraph = graph;
  entityNames = new Map(graph.nodes.filter((n) => n.type === 'entity' && n.entity_id).map((n) => [n.entity_id, n.label]));
  fillLedgerChoices();
  drawGraph($('graph'), graph, $('graph-legend'));
}

async function refreshTimeline() {
  const events = await api.get(casePath('/timeline'));
  renderEvents(
    $('timeline'),
    await caseTimeline(events, lastGraph, (id) => api.get(`/v1/material/${encodeURIComponent(id)}`).catch(() => null)),
  );
}

/** Live events of the case over SSE; each one also refreshes the views (once per burst). */
function followCase() {
  stream?.abort();
  stream = new AbortController();
  $('live-events').replaceChildren();
  // The stream of this origin: events_url is absolute (TAS_PUBLIC_URL), the page only talks to its own origin.
  followStream(
    new URL(current.events_url, window.location.href).pathname,
    () => key,
    (frame) => {
      const event = safeParse(frame.data);
      if (!event) return;
      appendEvent($('live-events'), event);
      clearTimeout(refreshTimer);
      refreshTimer = setTimeout(() => guarded(refreshCase), 300);
    },
    stream.signal,
  );
}

function safeParse(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function memberItem(member) {
  const remove = el('button', 'Remove');
  remove.type = 'button';
  remove.dataset.principal = member.principal;
  remove.addEventListener('click', () =>
    guarded(async () => {
      current = await api.post(casePath('/members'), { principal: member.principal, role: member.role, action: 'remove' });
      renderCase(current);
      say(`Member ${member.principal} removed.`);
    }),
  );
  const item = el('li', `${member.principal} (${member.role}) `);
  item.append(remove);
  return item;
}

action($('member-form'), async () => {
  current = await api.post(casePath('/members'), { principal: value('member-principal'), role: $('member-role').value, action: 'add' });
  renderCase(current);
  say('Member added.');
});

action($('assert-form'), async () => {
  await api.post(casePath('/assertions'), {
    subject: { presentations: [{ type: $('assert-type').value, value: value('assert-value') }] },
    statement: value('assert-statement'),
    disposition: $('assert-disposition').value,
    observed_at: new Date().toISOString(),
  });
  await refreshCase();
  say('Assertion recorded.');
});

action($('material-form'), async () => {
  const file = $('material-file').files?.[0];
  const text = $('material-text').value;
  if (!file && !text) throw new Error('Give a text or choose a file.');
  const declared = file
    ? await uploadFile(file)
    : await api.post('/v1/material', {
        kind: 'text',
        media_type: 'text/plain',
        purpose: current.purpose,
        text,
        case_id: current.case_id,
      });
  const settled = await settleMaterial(declared.material_id);
  const extraction = await api.get(`/v1/material/${declared.material_id}/extraction`);
  $('material-items').replaceChildren(...extraction.items.map((item) => el('li', `${item.type}: ${item.value ?? '(fingerprint only)'}`)));
  say(`Material ${settled.status}: ${extraction.items.length} item(s) extracted.`);
});

/** Material as bytes: declared by its SHA-256 and size, then PUT to the signed, single-use URL the declaration returns. */
async function uploadFile(file) {
  const bytes = await file.arrayBuffer();
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  const sha256 = [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
  const mediaType = file.type || 'application/octet-stream';
  const consent = value('material-consent');
  const declared = await api.post('/v1/material', {
    kind: kindOf(mediaType),
    media_type: mediaType,
    purpose: current.purpose,
    sha256,
    size_bytes: file.size,
    case_id: current.case_id,
    ...(consent ? { consent_ref: consent } : {}),
  });
  // The URL carries its own single-use token, not the key; it is on this origin (a path is enough).
  const target = new URL(declared.upload.url);
  const res = await fetch(target.pathname + target.search, { method: 'PUT', headers: declared.upload.headers, body: bytes });
  if (!res.ok) throw new Error(`The upload was refused (HTTP ${res.status}).`);
  return declared;
}

function kindOf(mediaType) {
  const family = mediaType.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'document';
}

async function settleMaterial(materialId) {
  for (let i = 0; i < 120; i += 1) {
    const material = await api.get(`/v1/material/${materialId}`);
    if (material.status === 'extracted' || material.status === 'failed') return material;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('The material is still being extracted; look again later.');
}

let gated = null;

action($('expand-form'), async () => {
  const presentations = [{ type: $('expand-type').value, value: value('expand-value') }];
  if ($('expand-type2').value && value('expand-value2'))
    presentations.push({ type: $('expand-type2').value, value: value('expand-value2') });
  const gate = $('expand-gate').checked;
  const answer = await api.post(casePath('/expand'), { seed: { presentations }, intent: value('expand-intent'), human_gate: gate });
  const connections = answer.findings?.connections ?? [];
  gated = gate ? answer.inquiry_id : null;
  $('candidates').hidden = !gate;
  $('candidate-list').replaceChildren(...connections.map(candidateItem));
  await refreshCase();
  say(
    gate
      ? `${connections.length} candidate(s): nothing spent until you choose.`
      : `Expanded: score ${answer.assessment.score} [${answer.assessment.low}-${answer.assessment.high}].`,
  );
});

function candidateItem(connection) {
  const item = el('li');
  const label = el('label');
  const box = document.createElement('input');
  box.type = 'checkbox';
  box.value = connection.connection_id;
  label.append(
    box,
    el('span', ` ${connection.from_label} ${connection.relation} ${connection.to_label} (weight ${connection.weight.toFixed(2)})`),
  );
  item.append(label);
  return item;
}

$('choose-button').addEventListener('click', () =>
  guarded(async () => {
    const chosen = [...$('candidate-list').querySelectorAll('input:checked')].map((box) => box.value);
    if (!gated || chosen.length === 0) throw new Error('Choose at least one candidate.');
    await api.post(casePath('/expand'), { choose: { inquiry_id: gated, connection_ids: chosen } });
    $('candidates').hidden = true;
    gated = null;
    await refreshCase();
    say(`Followed ${chosen.length} candidate(s).`);
  }),
);

action($('hold-form'), async () => {
  current = await api.post(casePath('/hold'), { reason: value('hold-reason') });
  renderCase(current);
  say('Legal hold placed.');
});

$('release-button').addEventListener('click', () =>
  guarded(async () => {
    current = await api.post(casePath('/release'), { reason: value('hold-reason') || 'released' });
    renderCase(current);
    say('Legal hold lifted.');
  }),
);

action($('review-form'), async () => {
  const note = value('review-note');
  current = await api.post(casePath('/review'), { outcome: $('review-outcome').value, ...(note ? { note } : {}) });
  renderCase(current);
  say(`Review recorded: the case is ${current.state}.`);
});

action($('close-form'), async () => {
  const finding = value('close-finding');
  current = await api.post(casePath(`/close${finding ? `?finding=${encodeURIComponent(finding)}` : ''}`));
  renderCase(current);
  say(`Case closed: it is ${current.state}.`);
});

action($('export-form'), async () => {
  const format = $('export-bytes').checked ? 'bundle_with_bytes' : 'bundle';
  let out = await api.post(casePath(`/export?format=${format}`));
  $('export-download').hidden = true;
  for (let i = 0; i < 240 && (out.status === 'queued' || out.status === 'building'); i += 1) {
    $('export-status').textContent = `Export ${out.status}…`;
    await new Promise((resolve) => setTimeout(resolve, 500));
    out = await api.get(casePath(`/exports/${out.export_id}`));
  }
  $('export-status').textContent = `Export ${out.status}${out.manifest_sha256 ? `, manifest sha256 ${out.manifest_sha256}` : ''}`;
  if (out.status !== 'ready' || !out.download_url) throw new Error(`The export did not complete (${out.status}).`);
  const bundle = await api.blob(out.download_url);
  const link = $('export-download');
  link.href = URL.createObjectURL(bundle);
  link.download = `case-${current.case_id}.tar.gz`;
  link.hidden = false;
  say('Bundle ready to download.');
});

action($('ledger-form'), async () => {
  const entityId = $('ledger-entity').value;
  if (!entityId) throw new Error('The case has no entity yet.');
  renderLedger($('ledger'), await api.get(`/v1/entities/${encodeURIComponent(entityId)}/ledger`));
});
