/** The monitors capability's surface: the only file (with schemas.ts) that other folders import. */
export type { MonitorService } from './service.js';
export { monitorClosed } from './commands.js';
