import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisCluster, type ClusterServers } from '../../scripts/lib/redisServers.js';
import {
  healthzNamesTopology,
  inquiriesAndTheirWebhooks,
  monitorRescans,
  revocationReachesSecondEdge,
  sessionOnSecondEdge,
  startFlows,
  type Flows,
} from './flows.js';

/**
 * The main flows on a real three-master Redis Cluster that the test starts
 * (redis-server --cluster-enabled yes, redis-cli --cluster create), with two
 * edges and the workers of the first: nothing of the service's Redis use may
 * assume one node (multi-key commands across slots, plain pub/sub fan-out,
 * BullMQ keys without a hash tag).
 */
let cluster: ClusterServers;
let flows: Flows;

beforeAll(async () => {
  cluster = await startRedisCluster();
  flows = await startFlows('cluster', 'Cluster Intel Ltd', { REDIS_CLUSTER_NODES: cluster.nodes });
}, 60_000);

afterAll(async () => {
  await flows?.stop();
  await cluster?.stop();
});

describe('on a three-master Redis Cluster', () => {
  it('/healthz on both edges names the cluster', () => healthzNamesTopology(flows.c));

  it("an inquiry, a revision on the second edge's SSE and their webhook deliveries", () => inquiriesAndTheirWebhooks(flows.c), 60_000);

  it('a WebSocket session on the second edge', () => sessionOnSecondEdge(flows.c), 30_000);

  it("a monitor's rescans", () => monitorRescans(flows.c), 60_000);

  it('a key revoked on one edge is refused on the other', () => revocationReachesSecondEdge(flows.c), 30_000);

  it("the keys spread over the masters: BullMQ's under one hash tag, the stream channels and rate buckets by their own slots", async () => {
    const client = new Cluster(cluster.nodes.split(',').map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })));
    try {
      await new Promise((resolve) => client.once('ready', resolve));
      const prefix = flows.ts.config.TAS_REDIS_PREFIX;
      const perMaster = await Promise.all(
        client.nodes('master').map(async (node) => {
          const keys: string[] = [];
          let cursor = '0';
          do {
            const [next, batch] = await node.scan(cursor, 'COUNT', 1000);
            cursor = next;
            keys.push(...batch);
          } while (cursor !== '0');
          return keys;
        }),
      );
      const all = perMaster.flat();
      const bull = all.filter((k) => k.startsWith(`{${prefix}}:`));
      expect(bull.length).toBeGreaterThan(0);
      // Every BullMQ key on one master: the one owning the tag's slot.
      expect(perMaster.filter((keys) => keys.some((k) => k.startsWith(`{${prefix}}:`)))).toHaveLength(1);
      expect(all.some((k) => k.startsWith(`${prefix}:rb:`))).toBe(true);
    } finally {
      client.disconnect();
    }
  });
});
