import { extractFromText } from '../src/material/extractText.js';

/**
 * `npm run bench:extraction`: identifier extraction time per MB of text, on
 * ordinary text and on the adversarial shapes that made the old email pattern
 * quadratic (issue 12 item 3). One JSON line per case; each case runs on
 * 1 MB and on 100 KB, so linear growth shows as a 10x ratio or less.
 */
const CASES: Record<string, (n: number) => string> = {
  'ordinary text': (n) => 'mail me at jane.doe@example.com or +44 20 7946 0958 see example.org\n'.repeat(Math.floor(n / 70)),
  'one long mailbox run': (n) => 'a'.repeat(n),
  'at signs without domains': (n) => 'a@'.repeat(n / 2),
  'dotted labels': (n) => 'a.'.repeat(n / 2),
  'a long digit run': (n) => '1'.repeat(n),
  'spaced digits': (n) => '12 '.repeat(Math.floor(n / 3)),
  'plus and digits': (n) => '+1'.repeat(n / 2),
  'hex and colons': (n) => 'ab:'.repeat(Math.floor(n / 3)),
};

function timed(text: string): number {
  const started = performance.now();
  extractFromText(text);
  return performance.now() - started;
}

for (const [name, make] of Object.entries(CASES)) {
  timed(make(10_000)); // warm the code paths
  const small = timed(make(100_000));
  const large = timed(make(1_000_000));
  console.log(
    JSON.stringify({
      case: name,
      ms_per_100kb: Math.round(small),
      ms_per_mb: Math.round(large),
      ratio: Math.round((large / Math.max(small, 0.1)) * 10) / 10,
    }),
  );
}
