import { extractText, getDocumentProxy } from 'unpdf';
import { claimOf, identifiersIn } from './textLines.js';
import { ExtractionFailure, type ExtractedThing, type ExtractOptions } from './types.js';

/**
 * Text from a PDF, page by page (pdf.js through unpdf), with each identifier
 * bound to its page, and the document's author and producing tool as claims.
 * Refused before reading pages: an encrypted file (we hold no password), a
 * file pdf.js cannot parse, and one of more than MAX_PAGES pages (a real
 * evidence document is far shorter; a 10,000-page file is a resource attack).
 */
export const MAX_PAGES = 2000;

export async function extractPdf(bytes: Buffer, opts: ExtractOptions): Promise<ExtractedThing[]> {
  const doc = await open(bytes);
  try {
    if (doc.numPages > MAX_PAGES) throw new ExtractionFailure('too_many_pages');
    const { text } = await extractText(doc, { mergePages: false });
    const found: ExtractedThing[] = [];
    text.forEach((pageText, i) => found.push(...identifiersIn(pageText, 'document', { page: i + 1 }, opts)));
    found.push(...(await metadataClaims(doc)));
    return found;
  } finally {
    await doc.destroy();
  }
}

type Doc = Awaited<ReturnType<typeof getDocumentProxy>>;

async function open(bytes: Buffer): Promise<Doc> {
  try {
    // A copy: pdf.js takes ownership of (and detaches) the array it is given.
    return await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true });
  } catch (error) {
    throw new ExtractionFailure((error as { name?: string } | null)?.name === 'PasswordException' ? 'encrypted' : 'corrupt');
  }
}

async function metadataClaims(doc: Doc): Promise<ExtractedThing[]> {
  const { info } = (await doc.getMetadata().catch(() => ({ info: {} }))) as { info: Record<string, unknown> };
  return [claimOf('document_author', info.Author, 'Author'), claimOf('document_tool', info.Creator, 'Creator')].filter(
    (c): c is ExtractedThing => c !== null,
  );
}
