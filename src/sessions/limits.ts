/**
 * Every limit of a session socket, with the reason for its value, and the
 * close codes the socket may end with (docs/sessions.md repeats both for
 * clients). Limits protect the process first (memory, event-loop time,
 * database transactions per frame) and the session's own evidence second.
 */

/**
 * Frames up to this size are read. A typed line, a pasted paragraph or one
 * observation fits in a few KiB; 16 KiB leaves room for long pastes while
 * keeping the worst-case work of one frame (JSON parse, extraction, checks)
 * far below a millisecond.
 */
export const MAX_FRAME_BYTES = 16 * 1024;

/**
 * Frames between MAX_FRAME_BYTES and this are refused (`frame_too_large`) and
 * the session goes on: the gap is what lets an honest oversized frame get a
 * refusal. Beyond it the socket is ended by us with 1009 (RFC 6455 "message
 * too big"), after the acks of the frames before it.
 */
export const HARD_MAX_PAYLOAD_BYTES = 64 * 1024;

/**
 * uWS's own cap (maxPayloadLength): beyond it uWS drops the connection without
 * a close frame, before any of our code runs, so a client sees 1006. Set
 * above HARD_MAX_PAYLOAD_BYTES so that the 1009 band exists; uWS holds at
 * most one message of this size per socket, and sockets are capped per key
 * and tenant, which bounds the memory a tenant can make it hold.
 */
export const UWS_MAX_PAYLOAD_BYTES = 256 * 1024;

/**
 * Sustained frames per second per session, and the burst allowed on top. A
 * person typing, or a form filled in live, sends a few frames a second; a
 * paste split into lines arrives as a burst. Each accepted frame costs one
 * database transaction, so this is also what bounds a session's share of the pool.
 */
export const FRAMES_PER_SECOND = 20;
export const FRAME_BURST = 40;

/**
 * A flood: more rate-limited frames than this within FLOOD_WINDOW_MS closes the
 * socket with 1008. An honest client that overshoots gets refusals and slows
 * down; one that keeps sending at many times the rate is not listening.
 */
export const FLOOD_REFUSALS_TO_CLOSE = 100;
export const FLOOD_WINDOW_MS = 5000;

/**
 * Frames accepted but not yet processed (each waits for the previous one's
 * transaction). At the rate limit a queue this long means the database is
 * slow; further frames are refused (`busy`) instead of growing memory.
 */
export const MAX_QUEUED_FRAMES = 64;

/**
 * Bytes the server may hold for a client that does not read. Events are
 * small (an assessment is about 1 KiB); 256 KiB is hundreds of them. Past
 * it the socket is closed with 4001 rather than dropping events silently:
 * a client that missed an assessment must know it did. uWS's own
 * maxBackpressure is set above it, so uWS never drops a message first.
 */
export const MAX_BUFFERED_BYTES = 256 * 1024;
export const UWS_MAX_BACKPRESSURE_BYTES = 1024 * 1024;

/**
 * The library's buffer is not the whole queue: the kernel's send buffer (and
 * the peer's receive buffer) hold megabytes before uWS buffers a byte, so a
 * byte count alone never caught a client that stopped reading (issue 40:
 * 2.67 MB queued over 210 s). Two clocks do: every heartbeat the socket is
 * pinged, and a ping still unanswered at the next heartbeat means the client
 * is not reading (a browser, and `ws`, answer pings by themselves as they
 * read); and uWS's buffer that has not drained to empty for
 * MAX_STALLED_HEARTBEATS heartbeats means the same. Either closes with 4001.
 * The interval is the setting TAS_SESSION_HEARTBEAT_MS (default 10 s): a
 * client that stops reading is closed within two of them.
 */
export const DEFAULT_HEARTBEAT_MS = 10_000;
export const MAX_STALLED_HEARTBEATS = 2;

/**
 * How long a socket we end ourselves (a flood, a revoked key, a shutdown, a
 * frame over the hard cap) may take to send the replies to the frames it
 * already accepted and `session.closed` before it is ended regardless: the
 * frames waiting are at most MAX_QUEUED_FRAMES short transactions.
 */
export const END_GRACE_MS = 5_000;

/**
 * Transport idle timeout (uWS idleTimeout, seconds), with automatic pings: it
 * only finds dead peers (a live browser answers pings by itself). The
 * session's own idle timeout (no frames for `idle_timeout_seconds`) is the
 * machine's durable idle check, which survives a process restart.
 */
export const TRANSPORT_IDLE_SECONDS = 120;

/** Identifiers one text line may contribute: MAX_IDENTIFIERS_PER_LINE in src/checks/extractIdentifiers.ts, shared with uploads' text. */

/**
 * Presentations one session may accumulate. Every frame re-runs the inline
 * checks over all of them, so this bounds a frame's work; 64 is far more than
 * one subject presents.
 */
export const MAX_PRESENTATIONS_PER_SESSION = 64;

/** Testimony frames per session, bounded for the same reason. */
export const MAX_OBSERVATIONS_PER_SESSION = 64;

/** Longest text line, in characters (a long paste should be split into lines). */
export const MAX_TEXT_LINE_CHARS = 4000;

/**
 * How long the one-time connection token stays valid: enough for a backend
 * to hand it to a browser and the browser to connect; short enough that a
 * token read from a log or a screen is useless soon after.
 */
export const TOKEN_TTL_MS = 60_000;

/**
 * After a REST close, how long the attached socket has to drain the frames it
 * already received before the session concludes without it.
 */
export const DRAIN_TIMEOUT_MS = 10_000;

/** Close codes a session socket ends with (RFC 6455 section 7.4; 4000-4999 are ours). */
export const CLOSE_CODES = {
  /** The session closed (close frame, REST close, idle timeout); `session.closed` was the last message. */
  sessionClosed: 1000,
  /** The server is shutting down; open a new session elsewhere. */
  goingAway: 1001,
  /** Sustained flooding beyond the rate limit, or the key that opened the session was revoked. */
  policyViolation: 1008,
  /** A frame over HARD_MAX_PAYLOAD_BYTES (and within uWS's own cap, beyond which uWS drops the connection: 1006). */
  messageTooBig: 1009,
  /** The server failed; the session was closed with what it had. */
  internalError: 1011,
  /** The client did not read its events: more than MAX_BUFFERED_BYTES waiting, a missed heartbeat, or a buffer that never drained. */
  slowConsumer: 4001,
} as const;

/**
 * Frames applied at once in one process, whatever their sessions: each holds
 * a database transaction, and the process has 2 to 4 cores' worth of work to
 * give them. The slots are handed out in turn across tenants
 * (src/sessions/fairGate.ts), so a tenant's frame waits for at most one frame
 * of each other tenant with frames waiting.
 */
export const FRAME_SLOTS = 8;
