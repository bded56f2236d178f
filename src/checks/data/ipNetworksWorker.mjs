// Reads the @ip-location-db CSV files into typed arrays in a worker thread,
// then hands the arrays to the main thread (transferred, not copied) and
// exits, so the memory the parsing used is given back with the thread
// (src/checks/ipNetworks.ts). Plain JavaScript: it needs nothing but Node. It sits
// under data/ so that check discovery, which imports every module of src/checks/, skips it.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { parentPort, workerData } from 'node:worker_threads';

class Column {
  constructor(Kind = Uint32Array) {
    this.Kind = Kind;
    this.data = new Kind(1 << 16);
  }
  length = 0;
  push(value) {
    if (this.length === this.data.length) {
      const grown = new this.Kind(this.data.length * 2);
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

// IPv6 ranges are kept by their upper 64 bits: routed prefixes are /64 or shorter, so no range is lost.
const HIGH_64 = (text) => BigInt(text) >> 64n;

/** Ranges with a number (column `numberAt`, or none) and a label (column `labelAt`); IPv6 ones as BigUint64 columns. */
async function table(path, numberAt, labelAt, ipv6 = false) {
  const starts = new Column(ipv6 ? BigUint64Array : Uint32Array);
  const ends = new Column(ipv6 ? BigUint64Array : Uint32Array);
  const numbers = new Column();
  const labelOf = new Column();
  const labels = new Map();
  for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
    if (line.length === 0) continue;
    const f = fields(line);
    starts.push(ipv6 ? HIGH_64(f[0]) : Number(f[0]));
    ends.push(ipv6 ? HIGH_64(f[1]) : Number(f[1]));
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
const asn6 = await table(workerData.asn6Path, 2, 3, true);
const country6 = await table(workerData.country6Path, null, 2, true);
const buffers = [asn, country, asn6, country6].flatMap((t) => [t.starts.buffer, t.ends.buffer, t.numbers.buffer, t.labelOf.buffer]);
parentPort.postMessage({ asn, country, asn6, country6 }, buffers);
