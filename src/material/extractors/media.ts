import { parseBuffer } from 'music-metadata';
import { claimOf } from './textLines.js';
import { ExtractionFailure, type ExtractedThing } from './types.js';

/**
 * What an audio or video file says about itself (music-metadata): its
 * duration, when it was recorded, the device or software that made it, and
 * who it names as its author, each as a claim. The content itself (speech,
 * pictures) is not read: no transcription or vision model runs here. SPEC
 * requires `consent_ref` on audio and video; the declaration enforces it
 * (rule D36) before any byte is taken.
 */
export async function extractMedia(bytes: Buffer, mediaType: string): Promise<ExtractedThing[]> {
  let meta: Awaited<ReturnType<typeof parseBuffer>>;
  try {
    meta = await parseBuffer(bytes, { mimeType: mediaType, size: bytes.length }, { duration: true, skipCovers: true });
  } catch {
    throw new ExtractionFailure('corrupt');
  }
  const durationMs =
    meta.format.duration === undefined || !Number.isFinite(meta.format.duration) ? null : Math.round(meta.format.duration * 1000);
  const created =
    meta.format.creationTime instanceof Date && !Number.isNaN(meta.format.creationTime.getTime())
      ? meta.format.creationTime.toISOString()
      : (meta.common.date ?? null);
  return [
    claimOf('media_duration_ms', durationMs, 'duration'),
    claimOf('capture_time', created, 'creation time'),
    claimOf('capture_device', meta.format.tool ?? meta.common.encodedby ?? null, 'encoder'),
    claimOf('document_author', meta.common.artist ?? null, 'artist'),
  ].filter((c): c is ExtractedThing => c !== null);
}
