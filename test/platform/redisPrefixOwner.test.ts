import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/platform/logger.js';
import { bindPrefix, prefixOwnerKey } from '../../src/platform/redis/prefixOwner.js';
import { startService } from '../../src/root/service.js';
import { adminQuery, cloneDatabase } from '../support/database.js';
import { dropRedisKeys, serviceLoginUrl, startTestService, type TestService } from '../support/service.js';

/**
 * One Redis prefix, one database (issue 38): the first start binds the
 * prefix to its database; another database on that prefix refuses to start
 * in production and warns, naming TAS_REDIS_PREFIX, elsewhere. The same
 * database starting again on its own prefix is not a conflict.
 */
const TAS = fileURLToPath(new URL('../../bin/tas.js', import.meta.url));

let first: TestService;
let redis: Redis;

beforeAll(async () => {
  first = await startTestService({}, { workers: false });
  redis = new Redis(first.config.REDIS_URL);
});

afterAll(async () => {
  redis?.disconnect();
  await first?.stop();
});

describe('the Redis prefix belongs to the database that first used it', () => {
  it('the first start bound it to its database (cluster id, name and oid)', async () => {
    const owner = await redis.get(prefixOwnerKey(first.config.TAS_REDIS_PREFIX));
    const dbName = new URL(first.dbUrl).pathname.slice(1);
    expect(owner).toMatch(new RegExp(`^postgres:\\d+/${dbName}/\\d+$`));
  });

  it('bindPrefix: bound once with SET NX, then ours for the same database, other for another', async () => {
    const prefix = `tasowner:${randomBytes(4).toString('hex')}`;
    try {
      expect(await bindPrefix(redis, prefix, 'postgres:1/a/1')).toEqual({ kind: 'bound', owner: 'postgres:1/a/1' });
      expect(await bindPrefix(redis, prefix, 'postgres:1/a/1')).toEqual({ kind: 'ours', owner: 'postgres:1/a/1' });
      expect(await bindPrefix(redis, prefix, 'postgres:1/b/2')).toEqual({ kind: 'other', owner: 'postgres:1/a/1' });
      expect(await redis.ttl(prefixOwnerKey(prefix))).toBe(-1);
    } finally {
      await dropRedisKeys(first.config.REDIS_URL, prefix);
    }
  });

  it('the same database starting again on its prefix starts quietly', async () => {
    const lines: string[] = [];
    const log = createLogger(
      'info',
      new Writable({
        write(chunk, _enc, cb) {
          lines.push(String(chunk));
          cb();
        },
      }),
    );
    const again = await startService(first.config, { edge: false, workers: false, log });
    await again.stop();
    expect(lines.join('\n')).not.toContain('TAS_REDIS_PREFIX');
  });

  it('in development another database on the prefix starts on a prefix of its own beside it, with a warning naming TAS_REDIS_PREFIX', async () => {
    const second = await startTestService({ TAS_REDIS_PREFIX: first.config.TAS_REDIS_PREFIX }, { workers: false });
    try {
      const warning = second.logs
        .map((l) => JSON.parse(l) as { level: number; msg: string; setting?: string })
        .find((l) => l.setting === 'TAS_REDIS_PREFIX');
      expect(warning?.level).toBe(40);
      expect(warning?.msg).toContain(`the Redis prefix '${first.config.TAS_REDIS_PREFIX}' belongs to another database`);
      expect(warning?.msg).toContain('set TAS_REDIS_PREFIX');
      // The owner is still the first database.
      expect(await redis.get(prefixOwnerKey(first.config.TAS_REDIS_PREFIX))).toContain(new URL(first.dbUrl).pathname.slice(1));
      // The second runs on a prefix of its own beside it, bound to its database, so neither takes the other's jobs or schedules.
      const beside = /uses the prefix '([^']+)' instead/.exec(warning?.msg ?? '')?.[1];
      expect(beside).toMatch(new RegExp(`^${first.config.TAS_REDIS_PREFIX}:[0-9a-f]{8}$`));
      expect(await redis.get(prefixOwnerKey(beside!))).toContain(new URL(second.dbUrl).pathname.slice(1));
    } finally {
      await second.service.stop();
      await adminQuery(`DROP DATABASE IF EXISTS ${new URL(second.dbUrl).pathname.slice(1)} WITH (FORCE)`);
    }
  });

  it('in production another database on the prefix refuses to start, naming TAS_REDIS_PREFIX', async () => {
    const db = await cloneDatabase();
    try {
      const r = await new Promise<{ code: number; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [TAS, 'serve', '--no-workers'], {
          env: {
            PATH: process.env.PATH ?? '',
            NODE_ENV: 'production',
            TAS_KEY_PEPPER: randomBytes(24).toString('hex'),
            DATABASE_URL: serviceLoginUrl(db.url),
            DATABASE_OWNER_URL: db.url,
            REDIS_URL: first.config.REDIS_URL,
            TAS_REDIS_PREFIX: first.config.TAS_REDIS_PREFIX,
            PORT: '0',
            HOST: '127.0.0.1',
            LOG_LEVEL: 'warn',
            TAS_DNS_SERVERS: 'off',
            TAS_RDAP_BASE_URL: 'off',
            TAS_SPOOL_DIR: `/tmp/tas-spool-${randomBytes(4).toString('hex')}`,
          },
        });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('close', (code) => resolve({ code: code ?? -1, stderr }));
      });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`the Redis prefix '${first.config.TAS_REDIS_PREFIX}' belongs to another database`);
      expect(r.stderr).toContain('set TAS_REDIS_PREFIX');
    } finally {
      await db.drop();
    }
  });
});
