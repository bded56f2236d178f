/**
 * A look-up that has not answered in three seconds rarely answers at all, and
 * an inquiry's deadline is usually a few seconds: waiting longer only turns a
 * timeout absence into a missed deadline.
 */
export const DEFAULT_NETWORK_TIMEOUT_MS = 3000;
