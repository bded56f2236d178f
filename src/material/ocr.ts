import { spawn } from 'node:child_process';

/**
 * Whether this machine can read text in images: the tesseract program with
 * its English data (Debian's tesseract-ocr and tesseract-ocr-eng). The
 * service never installs it (starting a service must not install system
 * packages); without it the service starts all the same, an image's text
 * extraction fails (its job is retried, then the material ends `failed` with
 * `extractor_failed`; EXIF, PDF, DOCX, audio, video and text are unaffected),
 * the start says so once, and /healthz reports `ocr: unavailable`.
 */
export type OcrHealth = 'unchecked' | 'available' | 'unavailable';

// `tesseract --list-langs` answers in milliseconds; a hung one must not hold the start or /healthz.
const PROBE_TIMEOUT_MS = 5000;

let known: OcrHealth = 'unchecked';
let probing: Promise<OcrHealth> | null = null;

/** Asks once per process; later calls get the same answer. */
export function probeOcr(command = 'tesseract'): Promise<OcrHealth> {
  probing ??= new Promise<OcrHealth>((resolve) => {
    let out = '';
    const child = spawn(command, ['--list-langs'], { stdio: ['ignore', 'pipe', 'pipe'], timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL' });
    // Older builds print the list on stderr.
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('error', () => resolve('unavailable'));
    child.on('close', (code) =>
      resolve(code === 0 && out.split(/\r?\n/).some((line) => line.trim() === 'eng') ? 'available' : 'unavailable'),
    );
  }).then((health) => (known = health));
  return probing;
}

/** The last answer, for /healthz; never waits. */
export function ocrHealth(): OcrHealth {
  return known;
}

export const OCR_INSTALL_HINT = 'install it with: sudo apt-get install tesseract-ocr tesseract-ocr-eng (Debian, Ubuntu), or see the README';
