import { monitorEventsPath } from './paths.js';
import type { MonitorOut } from './schemas.js';
import type { MonitorView } from './service.js';

/**
 * A monitor as the wire carries it: the command's value with the address of
 * its stream, absolute under the public base, placed where the schema has
 * it, so the body reads as it always has, byte for byte.
 */
export function monitorBody(view: MonitorView, publicUrl: string): MonitorOut {
  const { created_at, ...head } = view;
  return { ...head, events_url: `${publicUrl}${monitorEventsPath(view.monitor_id)}`, created_at };
}
