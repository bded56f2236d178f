import { createRedis, type RedisClient, type RedisTarget } from '../platform/redis/client.js';

/**
 * Key revocations travel on one Redis channel so every process forgets the
 * key at once (its in-process cache, its open SSE streams and WebSockets).
 * If a message is lost, the authenticator's cache lifetime still bounds how
 * long a revoked key can be honoured to under a second.
 */
export interface RevocationBus {
  publish(keyId: string): Promise<void>;
  onRevoked(listener: (keyId: string) => void): () => void;
  close(): Promise<void>;
}

export async function createRevocationBus(deps: { redisUrl: RedisTarget; publisher: RedisClient; prefix: string }): Promise<RevocationBus> {
  const channel = `${deps.prefix}:keys:revoked`;
  const listeners = new Set<(keyId: string) => void>();
  const subscriber = createRedis(deps.redisUrl, { forBullmq: true });
  await subscriber.connect();
  await subscriber.subscribe(channel);
  subscriber.on('message', (ch: string, keyId: string) => {
    if (ch !== channel) return;
    for (const l of listeners) l(keyId);
  });
  return {
    async publish(keyId) {
      for (const l of listeners) l(keyId);
      await deps.publisher.publish(channel, keyId);
    },
    onRevoked(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close() {
      listeners.clear();
      subscriber.disconnect();
      return Promise.resolve();
    },
  };
}
