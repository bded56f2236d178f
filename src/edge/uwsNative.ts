import * as uWS from './uws.js';

/**
 * The edge runs only on uWebSockets.js's native addon: the latency targets
 * and the parser's own answers to malformed heads (400, 431, 505) hold only
 * there. The package loads the addon built for this Node ABI and throws at
 * import when it has none; this makes sure what loaded is native code and
 * not some JavaScript stand-in.
 */
export function assertNativeUws(): void {
  if (typeof uWS.App !== 'function' || !Function.prototype.toString.call(uWS.App).includes('[native code]')) {
    throw new Error('uWebSockets.js did not load its native addon');
  }
}
