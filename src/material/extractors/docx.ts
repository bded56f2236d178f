import mammoth from 'mammoth';
import { identifiersIn } from './textLines.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './types.js';
import { checkZipExpansion } from './zipLimits.js';

/**
 * Text from a Word document (mammoth), paragraph by paragraph, with each
 * identifier bound to its paragraph. The archive's declared sizes are
 * checked first (zipLimits.ts); a ZIP that is not a Word document (no
 * `word/document.xml`) disagrees with its declared type.
 */
export async function extractDocx(bytes: Buffer, opts: ExtractOptions): Promise<ExtractedThing[]> {
  const entries = checkZipExpansion(bytes);
  if (!entries.includes('word/document.xml')) throw new ExtractionFailure('media_type_mismatch');
  let text: string;
  try {
    text = (await mammoth.extractRawText({ buffer: bytes })).value;
  } catch {
    throw new ExtractionFailure('corrupt');
  }
  // mammoth ends every paragraph with a blank line.
  const paragraphs = text.split('\n\n');
  return paragraphs.flatMap((p, i) => identifiersIn(p, 'document', { paragraph: i + 1 }, opts));
}
