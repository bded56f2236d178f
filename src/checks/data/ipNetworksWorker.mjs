// Reads the @ip-location-db CSV files into typed arrays in a worker thread,
// then hands the arrays to the main thread (transferred, not copied) and
// exits, so the memory the parsing used is given back with the thread
// (src/checks/ipNetworks.ts). Plain JavaScript: it needs nothing but Node. It sits
// under data/ so that check discovery, which imports every module of src/checks/, skips it.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parentPort, workerData } from 'node:worker_threads';

class Column {
  data = new Uint32Array(1 << 16);
  length = 0;
  push(value) {
    if (this.length === this.data.length) {
      const grown = new Uint32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = value;
  }
  done() {
    return this.data.slice(0, this.length);
  }
}

/** One CSV line of the packages' simple format: start,end,value[,"quoted, name"]. */
function fields(line) {
  const out = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      const close = line.indexOf('"', i + 1);
      out.push(line.slice(i + 1, close === -1 ? undefined : close));
      i = close === -1 ? line.length + 1 : close + 2;
    } else {
      const comma = line.indexOf(',', i);
      out.push(line.slice(i, comma === -1 ? undefined : comma));
      i = comma === -1 ? line.length + 1 : comma + 1;
    }
  }
  return out;
}

/** Ranges with a number (column `numberAt`, or none) and a label (column `labelAt`). */
async function table(path, numberAt, labelAt) {
  const starts = new Column();
  const ends = new Column();
  const numbers = new Column();
  const labelOf = new Column();
  const labels = new Map();
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    if (line.length === 0) continue;
    const f = fields(line);
    starts.push(Number(f[0]));
    ends.push(Number(f[1]));
    numbers.push(numberAt === null ? 0 : Number(f[numberAt]));
    const label = f[labelAt] ?? '';
    let index = labels.get(label);
    if (index === undefined) {
      index = labels.size;
      labels.set(label, index);
    }
    labelOf.push(index);
  }
  return { starts: starts.done(), ends: ends.done(), numbers: numbers.done(), labelOf: labelOf.done(), labels: [...labels.keys()] };
}

const asn = await table(workerData.asnPath, 2, 3);
const country = await table(workerData.countryPath, null, 2);
const buffers = [asn, country].flatMap((t) => [t.starts.buffer, t.ends.buffer, t.numbers.buffer, t.labelOf.buffer]);
parentPort.postMessage({ asn, country }, buffers);
