import { mkdir, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { parseArgs } from 'node:util';
import { calibrationReports, reliabilitySvg } from '../calibration/report.js';
import type { Config } from '../platform/config.js';
import { scoredOutcomes } from '../calibration/store.js';
import { createDb } from '../platform/db/pool.js';
import { checkPostgres } from '../platform/preflight.js';
import { UsageError } from './usageError.js';

/**
 * `tas calibration [--tenant ID] [--mode live|test] [--svg DIR]`: the
 * calibration report per methodology version as JSON lines, and a reliability
 * plot per version when --svg names a directory.
 */
export async function calibrationCommand(config: Config, args: string[]): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args,
      options: { tenant: { type: 'string' }, mode: { type: 'string' }, svg: { type: 'string' } },
      strict: true,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.mode !== undefined && values.mode !== 'live' && values.mode !== 'test') throw new UsageError('--mode is live or test');
  if (values.tenant !== undefined && !z.uuid().safeParse(values.tenant).success)
    throw new UsageError('--tenant must be a tenant id (uuid)');
  await checkPostgres(config.DATABASE_OWNER_URL);
  const db = await createDb(config.DATABASE_OWNER_URL);
  try {
    const rows = await scoredOutcomes(db, {
      ...(typeof values.tenant === 'string' ? { tenantId: values.tenant } : {}),
      ...(typeof values.mode === 'string' ? { mode: values.mode } : {}),
    });
    const reports = calibrationReports(rows);
    for (const r of reports) console.log(JSON.stringify(r));
    if (reports.length === 0) console.error('no scored outcomes yet');
    if (typeof values.svg === 'string') {
      // The plots go where asked, the directory made if it is not there yet.
      await mkdir(values.svg, { recursive: true }).catch((error: Error) => {
        throw new UsageError(`--svg ${values.svg}: ${error.message}`);
      });
      for (const r of reports)
        await writeFile(`${values.svg}/reliability-${r.methodology_version.replace(/[^\w.-]/g, '_')}.svg`, reliabilitySvg(r));
    }
    return 0;
  } finally {
    await db.end();
  }
}
