import { MAX_HEADER_OCTETS, MAX_TARGET_OCTETS } from './framing.js';

/**
 * How much of a request head uWebSockets.js buffers before answering 431
 * itself. Its native parser reads UWS_HTTP_MAX_HEADERS_SIZE once, when the
 * addon loads, and defaults to 4 KiB: less than a browser's cookies. It is
 * set here, before the addon loads (src/edge/uws.ts imports this first), to
 * the largest head the service's own framing rules admit (a target of
 * MAX_TARGET_OCTETS and a header section of MAX_HEADER_OCTETS), so those
 * rules answer with their problem documents (414, 431) and the parser only
 * refuses heads beyond both. An operator's own setting is kept.
 */
export const UWS_HEAD_LIMIT_OCTETS = MAX_TARGET_OCTETS + MAX_HEADER_OCTETS + 1024;
process.env.UWS_HTTP_MAX_HEADERS_SIZE ??= String(UWS_HEAD_LIMIT_OCTETS);
