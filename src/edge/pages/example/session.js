// The live session example page (GET /examples/session). Plain browser
// JavaScript, no dependencies. Every value from the server is written with
// textContent, never as HTML. The protocol is docs/sessions.md.
'use strict';

const $ = (id) => document.getElementById(id);
let socket = null;
let assessments = 0;
const pendingLines = new Map(); // frame seq -> the line as typed, to mark what was extracted
let nextSeq = 0;

function setState(text) {
  $('state').textContent = text;
}

function enableTyping(on) {
  for (const id of ['line', 'send', 'close']) $(id).disabled = !on;
  if (on) $('line').focus();
}

function addEntry(className, build) {
  const li = document.createElement('li');
  if (className) li.className = className;
  build(li);
  $('transcript').append(li);
  li.scrollIntoView({ block: 'nearest' });
  return li;
}

/** The typed line with each extracted identifier marked, from the offsets in the ack. */
function markedLine(li, line, extracted) {
  let at = 0;
  for (const e of [...extracted].sort((a, b) => a.start - b.start)) {
    li.append(line.slice(at, e.start));
    const mark = document.createElement('mark');
    mark.textContent = line.slice(e.start, e.end);
    mark.dataset.type = e.type;
    mark.title = `${e.type}: ${e.normalised}`;
    li.append(mark);
    at = e.end;
  }
  li.append(line.slice(at));
}

function showAssessment(a) {
  assessments += 1;
  $('score').textContent = String(a.score);
  $('score').dataset.assessmentId = a.assessment_id;
  $('interval').textContent = `interval ${a.low}–${a.high}`;
  $('label').textContent = a.label ? `label ${a.label.value} (policy v${a.label.policy_version})` : 'no policy label';
  $('revisions').textContent = `${assessments} assessment${assessments === 1 ? '' : 's'}`;
}

function showFindings(findings) {
  for (const f of findings) {
    const li = document.createElement('li');
    li.className = f.disposition || '';
    li.textContent = `${f.about_type} ${f.about}: ${f.statement}`;
    $('findings').append(li);
  }
}

function onMessage(raw) {
  let m;
  try {
    m = JSON.parse(raw);
  } catch {
    return;
  }
  switch (m.type) {
    case 'ready':
      setState(`Connected: session ${m.session_id} (${m.retention_mode}).`);
      enableTyping(true);
      // A claimed country is a claim frame: phone numbers are read against it and checked for consistency.
      if (claimedCountry) sendFrame({ type: 'claim', claim: { country: claimedCountry } });
      break;
    case 'ack': {
      const line = pendingLines.get(m.seq);
      pendingLines.delete(m.seq);
      if (line !== undefined) addEntry('', (li) => markedLine(li, line, m.extracted || []));
      break;
    }
    case 'refused':
      pendingLines.delete(m.seq);
      addEntry('refused', (li) => {
        li.textContent = `Frame ${m.seq} refused (${m.rule}): ${m.msg}`;
      });
      break;
    case 'assessment.issued':
    case 'assessment.revised':
      showAssessment(m.assessment);
      break;
    case 'findings.added':
      showFindings(m.findings);
      break;
    case 'session.closing':
      setState('Closing...');
      break;
    case 'session.closed':
      showAssessment(m.assessment);
      setState(`Closed (${m.reason}). Final score ${m.assessment.score}.`);
      enableTyping(false);
      break;
    default:
      break;
  }
}

function connect(wsUrl, token) {
  if (socket) socket.close();
  nextSeq = 0;
  // The token travels as a subprotocol: a browser cannot set headers on a WebSocket.
  socket = new WebSocket(wsUrl, ['tas.v1', `tas.token.${token}`]);
  setState('Connecting...');
  socket.addEventListener('message', (e) => onMessage(e.data));
  socket.addEventListener('close', (e) => {
    enableTyping(false);
    if (!$('state').textContent.startsWith('Closed')) setState(`Disconnected (close code ${e.code}).`);
  });
}

function sendFrame(frame) {
  if (!socket || socket.readyState !== WebSocket.OPEN) return null;
  nextSeq += 1;
  socket.send(JSON.stringify(frame));
  return nextSeq;
}

let claimedCountry = '';

$('open').addEventListener('click', async () => {
  claimedCountry = $('country').value.trim().toUpperCase();
  const body = {
    purpose: $('purpose').value.trim(),
    intent: $('intent').value.trim(),
    stake: { kind: $('stake').value },
    retention_mode: $('retention').value,
  };
  setState('Opening...');
  const res = await fetch('/v1/sessions', {
    method: 'POST',
    headers: { authorization: `Bearer ${$('apiKey').value.trim()}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const opened = await res.json().catch(() => ({}));
  if (res.status !== 201) {
    setState(`Could not open a session (HTTP ${res.status}): ${opened.detail ? JSON.stringify(opened.detail) : opened.title || ''}`);
    return;
  }
  connect(opened.ws_url, opened.token);
});

$('useToken').addEventListener('click', () => connect($('wsUrl').value.trim(), $('token').value.trim()));

$('lineForm').addEventListener('submit', (e) => {
  e.preventDefault();
  const line = $('line').value;
  if (!line.trim()) return;
  const seq = sendFrame({ type: 'text', line });
  if (seq !== null) pendingLines.set(seq, line);
  $('line').value = '';
});

$('close').addEventListener('click', () => sendFrame({ type: 'close', reason: 'ended' }));
