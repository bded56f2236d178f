// Server-sent events over fetch: EventSource cannot send an Authorization
// header, and the key must never travel in a URL. Frames are parsed as the
// SSE format defines them; a dropped stream resumes with Last-Event-ID.

const RECONNECT_MS = 2000;

/** Follows `path` until `signal` aborts; calls `onEvent({ id, event, data })` for each event with data. */
export function followStream(path, keyOf, onEvent, signal) {
  let lastId = null;
  (async () => {
    while (!signal.aborted) {
      try {
        const headers = { Authorization: `Bearer ${keyOf()}`, Accept: 'text/event-stream' };
        if (lastId !== null) headers['Last-Event-ID'] = lastId;
        const res = await fetch(path, { headers, signal, cache: 'no-store' });
        if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
        await readFrames(res.body, (frame) => {
          if (frame.id !== null) lastId = frame.id;
          if (frame.data !== null) onEvent(frame);
        });
      } catch {
        if (signal.aborted) return;
      }
      await new Promise((resolve) => setTimeout(resolve, RECONNECT_MS));
    }
  })();
}

async function readFrames(body, onFrame) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end;
    while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const raw = buffer.slice(0, end);
      buffer = buffer.slice(buffer.slice(end).match(/^\r?\n\r?\n/)[0].length + end);
      onFrame(parseFrame(raw));
    }
  }
}

function parseFrame(raw) {
  const frame = { id: null, event: 'message', data: null };
  const data = [];
  for (const line of raw.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') data.push(value);
  }
  if (data.length > 0) frame.data = data.join('\n');
  return frame;
}
