import { OCR_ENGINE } from './ocr.js';
import { identifiersIn } from './extractors/textLines.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './extractors/types.js';
import type { Family } from './sniff.js';

/**
 * Every extractor by family: the one place that says which code reads which
 * bytes. Runs inside the parser process (parserProcess.ts, parserChild.mjs),
 * never in the service's process. Each parser is loaded when its family first
 * comes, so a parser process starts with only the code its one file needs
 * (and the service, which reads the version, loads none). The version names
 * the extractors, so a stored extraction says what produced it.
 */
export const BYTES_EXTRACTOR_VERSION = `bytes-identifiers/1 (pdf.js, mammoth, ${OCR_ENGINE}, exifr, music-metadata)`;

export async function extractFromBytes(family: Family, bytes: Buffer, opts: ExtractOptions, mediaType = ''): Promise<ExtractedThing[]> {
  switch (family) {
    case 'media':
      return (await import('./extractors/media.js')).extractMedia(bytes, mediaType);
    case 'pdf':
      return (await import('./extractors/pdf.js')).extractPdf(bytes, opts);
    case 'docx':
      return (await import('./extractors/docx.js')).extractDocx(bytes, opts);
    case 'text':
      return extractPlainText(bytes, opts);
    case 'png':
    case 'jpeg':
    case 'gif':
    case 'webp':
    case 'tiff':
      return (await import('./extractors/image.js')).extractImage(bytes, family, opts);
  }
}

function extractPlainText(bytes: Buffer, opts: ExtractOptions): ExtractedThing[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new ExtractionFailure('corrupt');
  }
  return identifiersIn(text, 'text', {}, opts);
}
