import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * Whether this installation can read text in images: tesseract.js (the
 * tesseract engine compiled to WebAssembly) and its English model, both npm
 * dependencies, so `npm install` brings them and no system package is needed
 * (issue 38). The check looks for the engine's files and the model on disk;
 * it starts nothing and fetches nothing. Without them the service starts all
 * the same, an image's text extraction fails (its job is retried, then the
 * material ends `failed` with `extractor_failed`; EXIF, PDF, DOCX, audio,
 * video and text are unaffected), the start says so once, and /healthz
 * reports `ocr: unavailable`.
 */
/** The OCR engine and model, as the extractor version names them. */
export const OCR_ENGINE = 'tesseract.js-7/eng';

export type OcrHealth = 'unchecked' | 'available' | 'unavailable';

/** Where the English model lies: the package's best_int LSTM model, the one tesseract.js itself would fetch. */
export function englishModelDirectory(): string {
  const eng = createRequire(import.meta.url)('@tesseract.js-data/eng') as { langPath: string };
  return `${eng.langPath}_best_int`;
}

let known: OcrHealth = 'unchecked';

/** Looks once per process; later calls get the same answer. */
export function probeOcr(): Promise<OcrHealth> {
  return Promise.resolve(ocrHealth());
}

function ocrFilesPresent(): boolean {
  try {
    // The engine as tesseract.js itself finds it (its own dependency).
    const engine = createRequire(createRequire(import.meta.url).resolve('tesseract.js'));
    const core = dirname(engine.resolve('tesseract.js-core/package.json'));
    return existsSync(join(core, 'tesseract-core-lstm.wasm')) && existsSync(join(englishModelDirectory(), 'eng.traineddata.gz'));
  } catch {
    return false;
  }
}

/** For /healthz: the answer, found on the first call (a look for three files); never waits. */
export function ocrHealth(): OcrHealth {
  if (known === 'unchecked') known = ocrFilesPresent() ? 'available' : 'unavailable';
  return known;
}

export const OCR_INSTALL_HINT =
  'install the npm dependencies again (npm install): tesseract.js and @tesseract.js-data/eng bring it, no system package';
