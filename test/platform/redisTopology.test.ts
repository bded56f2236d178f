import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, loadConfig } from '../../src/platform/config.js';
import { bullConnections, bullPrefix } from '../../src/platform/redis/bullConnection.js';
import { describeTopology, redisTopologyOf } from '../../src/platform/redis/topology.js';

/** Settings to a Redis topology: given the environment, when it is read, then this topology or this refusal. */
describe('Redis topology settings', () => {
  it('REDIS_URL alone is one node', () => {
    expect(redisTopologyOf({ REDIS_URL: 'redis://10.0.0.5:6380/2' })).toEqual({ kind: 'single', url: 'redis://10.0.0.5:6380/2' });
  });

  it('REDIS_CLUSTER_NODES is a cluster; REDIS_URL lends its credentials and TLS', () => {
    expect(redisTopologyOf({ REDIS_URL: 'rediss://app:s%40cret@ignored:1', REDIS_CLUSTER_NODES: 'a:7000, b:7001,[::1]:7002' })).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a', port: 7000 },
        { host: 'b', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      auth: { username: 'app', password: 's@cret', tls: true },
    });
  });

  it('a cluster has only database 0', () => {
    expect(() => redisTopologyOf({ REDIS_URL: 'redis://x/3', REDIS_CLUSTER_NODES: 'a:7000' })).toThrow(/only database 0/);
  });

  it('REDIS_SENTINELS with REDIS_SENTINEL_NAME is Sentinel, with the database number of REDIS_URL', () => {
    expect(
      redisTopologyOf({
        REDIS_URL: 'redis://:pw@x/1',
        REDIS_SENTINELS: 's1:26379,s2:26379',
        REDIS_SENTINEL_NAME: 'main',
        REDIS_SENTINEL_PASSWORD: 'spw',
      }),
    ).toEqual({
      kind: 'sentinel',
      name: 'main',
      sentinelPassword: 'spw',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      auth: { password: 'pw', db: 1 },
    });
  });

  it('refuses Sentinel without a name, two topologies at once, and a node that is not host:port', () => {
    expect(() => redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_SENTINELS: 's1:26379' })).toThrow(/REDIS_SENTINEL_NAME/);
    expect(() =>
      redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_SENTINELS: 's1:26379', REDIS_SENTINEL_NAME: 'm', REDIS_CLUSTER_NODES: 'a:1' }),
    ).toThrow(/two topologies/);
    expect(() => redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_CLUSTER_NODES: 'a' })).toThrow(/not host:port/);
    expect(() => redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_CLUSTER_NODES: 'a:70000' })).toThrow(/not host:port/);
  });

  it('loadConfig turns a refusal into a ConfigError and describes the topology without a password', () => {
    expect(() => loadConfig({ REDIS_SENTINELS: 's1:26379' })).toThrow(ConfigError);
    const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: 'redis://:hunter2@x', REDIS_CLUSTER_NODES: 'a:7000,b:7001' });
    expect(config.redis.kind).toBe('cluster');
    expect(describeConfig(config).redis).toBe('cluster a:7000,b:7001');
    expect(JSON.stringify(describeConfig(config))).not.toContain('hunter2');
    expect(describeTopology(loadConfig({ NODE_ENV: 'test' }).redis)).toBe('single 127.0.0.1:6379');
  });

  it('waiting for replicas is refused on a cluster, where WAIT would go to any node', () => {
    const cluster = redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_CLUSTER_NODES: 'a:1' });
    expect(() => bullConnections(cluster, 'tas', 1)).toThrow(/not supported on a Redis Cluster/);
    expect(
      bullConnections(redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_SENTINELS: 's:1', REDIS_SENTINEL_NAME: 'm' }), 'tas').replicas,
    ).toBe(1);
    expect(bullConnections('redis://x', 'tas').replicas).toBe(0);
  });

  it("BullMQ's prefix is a hash tag on a cluster only", () => {
    expect(bullPrefix(redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_CLUSTER_NODES: 'a:1' }), 'tas')).toBe('{tas}');
    expect(bullPrefix('redis://x', 'tas')).toBe('tas');
    expect(bullPrefix(redisTopologyOf({ REDIS_URL: 'redis://x', REDIS_SENTINELS: 's:1', REDIS_SENTINEL_NAME: 'm' }), 'tas')).toBe('tas');
  });
});
