// The head limit must be in the environment before the native addon loads, so it is imported first:
// modules are evaluated in the order of these statements.
import './uwsHeadLimit.js';
import type { CompressOptions } from 'uWebSockets.js';
import * as native from 'uWebSockets.js';

/** uWebSockets.js as the service loads it: every value import of the package goes through here. */
export * from 'uWebSockets.js';

/**
 * No permessage-deflate (the session socket's setting). The package exports
 * DISABLED at run time but its typings declare it only as a type, so it is
 * read here once, typed.
 */
export const COMPRESSION_DISABLED: CompressOptions = (native as unknown as { DISABLED: CompressOptions }).DISABLED;
