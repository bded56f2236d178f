/** The sessions capability's surface: the only file (with schemas.ts) that other folders import. */
export type { SessionBinding, SessionCommands } from './commands.js';
export { parseFrame } from './frames.js';
export type { Refusal } from './frames.js';
export {
  CLOSE_CODES,
  END_GRACE_MS,
  FRAMES_PER_SECOND,
  FRAME_BURST,
  HARD_MAX_PAYLOAD_BYTES,
  MAX_BUFFERED_BYTES,
  MAX_FRAME_BYTES,
  MAX_QUEUED_FRAMES,
  MAX_STALLED_HEARTBEATS,
} from './limits.js';
export { createFrameBucket } from './rateLimit.js';
export type { SessionService } from './service.js';
export type { FairGate } from './fairGate.js';
