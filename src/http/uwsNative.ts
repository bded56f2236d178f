import { createRequire } from 'node:module';
import uWS from 'uWebSockets.js';

/**
 * The uWS package silently falls back to a slow pure-JS server when its native
 * addon does not match the Node ABI. We refuse to start on the fallback: the
 * latency targets only hold on the native server.
 */
export function assertNativeUws(): void {
  const require = createRequire(import.meta.url);
  const binary = `uWebSockets.js/binaries/uws_${process.platform}_${process.arch}_${process.versions.modules}.node`;
  let native: unknown;
  try {
    native = require(binary);
  } catch (error) {
    throw new Error(`uWebSockets.js has no native addon for this platform (${binary}): ${(error as Error).message}`);
  }
  if (native !== uWS) throw new Error('uWebSockets.js loaded its JavaScript fallback instead of the native addon');
}
