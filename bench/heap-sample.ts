import WebSocket from 'ws';

/**
 * What a running service allocates, garbage included: V8's sampling heap
 * profiler over the inspector protocol, with the objects the collectors
 * already freed counted (so it shows allocation, not what is still held),
 * summed by the allocating function and by the nearest frame of the project's
 * own code. Start the service under a bench with the inspector open, then
 * sample it during the measured part:
 *
 *   BENCH_NODE_ARGS="--inspect=127.0.0.1:9339" npx tsx bench/run.ts --only inquiry --rate 300 --duration 25 &
 *   sleep 14; npx tsx bench/heap-sample.ts 9339 6
 *
 * Divide the total by the inquiries answered in those seconds for the bytes
 * one allocates (2026-11-27: about 415 KB at 300 a second, bench/README).
 */
interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  callFrame: CallFrame;
  selfSize: number;
  children: ProfileNode[];
}

const [port = '9229', secondsArg = '6'] = process.argv.slice(2);
const SAMPLING_INTERVAL_BYTES = 8192;
const PROJECT_FRAME = /(^|\s)(src|actors|machines)\//;

function connect(url: string) {
  const ws = new WebSocket(url);
  let id = 0;
  const pending = new Map<number, (result: unknown) => void>();
  ws.on('message', (data) => {
    const message = JSON.parse((data as Buffer).toString('utf8')) as { id?: number; result?: unknown; error?: { message: string } };
    const resolve = message.id === undefined ? undefined : pending.get(message.id);
    if (resolve === undefined) return;
    pending.delete(message.id!);
    if (message.error) throw new Error(message.error.message);
    resolve(message.result);
  });
  const send = (method: string, params: object = {}) =>
    new Promise<unknown>((resolve) => {
      id += 1;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { ws, send, opened: new Promise((resolve) => ws.once('open', resolve)) };
}

function frameName(cf: CallFrame): string {
  const where = cf.url.replace(`file://${process.cwd()}/`, '');
  return `${cf.functionName || '(anonymous)'} ${where}:${cf.lineNumber + 1}`;
}

function summarise(head: ProfileNode) {
  const byFunction = new Map<string, number>();
  const byProjectFrame = new Map<string, number>();
  let total = 0;
  const add = (map: Map<string, number>, key: string, bytes: number) => map.set(key, (map.get(key) ?? 0) + bytes);
  const walk = (node: ProfileNode, callers: string[]) => {
    const name = frameName(node.callFrame);
    total += node.selfSize;
    if (node.selfSize > 0) {
      add(byFunction, name, node.selfSize);
      add(byProjectFrame, [name, ...callers].find((f) => PROJECT_FRAME.test(f)) ?? name, node.selfSize);
    }
    for (const child of node.children) walk(child, [name, ...callers]);
  };
  walk(head, []);
  return { total, byFunction, byProjectFrame };
}

function printTop(title: string, map: Map<string, number>, total: number, count: number): void {
  console.log(`-- ${title}`);
  for (const [name, bytes] of [...map].sort((a, b) => b[1] - a[1]).slice(0, count)) {
    console.log(`${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${name}`);
  }
}

const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
const inspector = connect(targets[0]!.webSocketDebuggerUrl);
await inspector.opened;
await inspector.send('HeapProfiler.enable');
await inspector.send('HeapProfiler.startSampling', {
  samplingInterval: SAMPLING_INTERVAL_BYTES,
  includeObjectsCollectedByMajorGC: true,
  includeObjectsCollectedByMinorGC: true,
});
await new Promise((resolve) => setTimeout(resolve, Number(secondsArg) * 1000));
const { profile } = (await inspector.send('HeapProfiler.stopSampling')) as { profile: { head: ProfileNode } };
inspector.ws.close();
const { total, byFunction, byProjectFrame } = summarise(profile.head);
console.log(`allocated in ${secondsArg} s (sampled): ${(total / 1e6).toFixed(1)} MB`);
printTop('by allocating function', byFunction, total, 25);
printTop('by nearest frame of the project', byProjectFrame, total, 30);
