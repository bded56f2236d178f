/**
 * Which Redis the service talks to, chosen by settings (docs/scaling.md,
 * "Redis topologies"):
 *
 * - `single`: one node, `REDIS_URL`.
 * - `cluster`: a Redis Cluster, `REDIS_CLUSTER_NODES=host:port,...` (any
 *   reachable masters or replicas; the client learns the rest of the map).
 * - `sentinel`: a primary guarded by Sentinel, `REDIS_SENTINELS=host:port,...`
 *   and `REDIS_SENTINEL_NAME` (the name the sentinels monitor); the client
 *   asks the sentinels for the primary and follows a failover.
 *
 * In the last two, REDIS_URL still carries what the nodes share: its user,
 * password, database number (sentinel only: a cluster has one database) and
 * `rediss:` for TLS. Its host and port are then not used.
 */
export interface HostPort {
  host: string;
  port: number;
}

export interface RedisAuth {
  username?: string;
  password?: string;
  tls?: boolean;
  db?: number;
}

export type RedisTopology =
  | { kind: 'single'; url: string }
  | { kind: 'cluster'; nodes: HostPort[]; auth: RedisAuth }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string; auth: RedisAuth; sentinelPassword?: string };

export type RedisTopologyKind = RedisTopology['kind'];

export interface RedisSettings {
  REDIS_URL: string;
  REDIS_CLUSTER_NODES?: string | undefined;
  REDIS_SENTINELS?: string | undefined;
  REDIS_SENTINEL_NAME?: string | undefined;
  REDIS_SENTINEL_PASSWORD?: string | undefined;
}

export class RedisTopologyError extends Error {
  override name = 'RedisTopologyError';
}

export function redisTopologyOf(s: RedisSettings): RedisTopology {
  if (s.REDIS_CLUSTER_NODES && s.REDIS_SENTINELS) {
    throw new RedisTopologyError('REDIS_CLUSTER_NODES and REDIS_SENTINELS name two topologies; set one');
  }
  if (s.REDIS_CLUSTER_NODES) {
    const auth = authOf(s.REDIS_URL);
    if (auth.db !== undefined && auth.db !== 0)
      throw new RedisTopologyError('a Redis Cluster has only database 0; drop the database number from REDIS_URL');
    return { kind: 'cluster', nodes: hostPortsOf(s.REDIS_CLUSTER_NODES, 'REDIS_CLUSTER_NODES'), auth: withoutDb(auth) };
  }
  if (s.REDIS_SENTINELS) {
    if (!s.REDIS_SENTINEL_NAME)
      throw new RedisTopologyError('REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the name of the primary the sentinels monitor');
    return {
      kind: 'sentinel',
      sentinels: hostPortsOf(s.REDIS_SENTINELS, 'REDIS_SENTINELS'),
      name: s.REDIS_SENTINEL_NAME,
      auth: authOf(s.REDIS_URL),
      ...(s.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: s.REDIS_SENTINEL_PASSWORD } : {}),
    };
  }
  return { kind: 'single', url: s.REDIS_URL };
}

/** What /healthz and the start-up line say: the kind and its nodes, never a password. */
export function describeTopology(t: RedisTopology): string {
  if (t.kind === 'single') {
    const u = new URL(t.url);
    return `single ${u.hostname}:${u.port || 6379}`;
  }
  if (t.kind === 'cluster') return `cluster ${t.nodes.map((n) => `${n.host}:${n.port}`).join(',')}`;
  return `sentinel ${t.name}@${t.sentinels.map((n) => `${n.host}:${n.port}`).join(',')}`;
}

function hostPortsOf(list: string, setting: string): HostPort[] {
  const nodes = list
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((entry) => {
      // host:port, [v6]:port
      const m = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(entry);
      if (!m || Number(m[2]) < 1 || Number(m[2]) > 65535) throw new RedisTopologyError(`${setting}: '${entry}' is not host:port`);
      return { host: m[1]!, port: Number(m[2]) };
    });
  if (nodes.length === 0) throw new RedisTopologyError(`${setting} names no node`);
  return nodes;
}

function authOf(url: string): RedisAuth {
  const u = new URL(url);
  return {
    ...(u.username ? { username: decodeURIComponent(u.username) } : {}),
    ...(u.password ? { password: decodeURIComponent(u.password) } : {}),
    ...(u.protocol === 'rediss:' ? { tls: true } : {}),
    ...(u.pathname.length > 1 ? { db: Number(u.pathname.slice(1)) } : {}),
  };
}

function withoutDb(auth: RedisAuth): RedisAuth {
  const { db: _db, ...rest } = auth;
  return rest;
}
