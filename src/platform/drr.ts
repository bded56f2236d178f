/**
 * Deficit round robin over tenants' lanes (issue 48): the pure core of the
 * scheduler (src/platform/scheduler.ts), with no time, promises or slots.
 *
 * Each tenant has two lanes: `resuming` (units already started that came back
 * from a wait, as when a database answer arrived) and `fresh` (units not yet
 * started). At the start of its turn a tenant's deficit grows by one quantum
 * times its weight; it is served while the estimated cost of its next item
 * fits, its resuming items first, so a half-done unit is not starved by the
 * same tenant's new arrivals. The caller says whether a fresh item may start
 * at all (the open bound): a tenant with only fresh items is then passed over
 * without gaining credit. A tenant with nothing waiting leaves the turns and
 * keeps no credit, so it cannot save turns for later; what an item really
 * cost corrects its tenant's deficit afterwards (`correct`), a debt in full,
 * a refund up to one quantum.
 */
export type Lane = 'fresh' | 'resuming';

export interface Picked<T> {
  tenant: string;
  item: T;
  lane: Lane;
}

export interface Drr<T> {
  add(tenant: string, item: T, lane: Lane): void;
  /** The next item to serve, taken out of its lane; null when none may be served. */
  next(freshAllowed: boolean): Picked<T> | null;
  /** Adds `delta` CPU ms to the tenant's deficit (estimate minus actual) while it still has items waiting. */
  correct(tenant: string, delta: number): void;
  /** Items waiting in one tenant's lane. */
  waiting(tenant: string, lane: Lane): number;
  /** The weights of the tenants with items waiting, and whether `tenant` is among them. */
  activeWeight(tenant: string): { total: number; includes: boolean };
}

export interface DrrSettings<T> {
  weightOf(tenant: string): number;
  /** The item's estimated cost, in the quantum's unit. */
  estimate(item: T): number;
  quantum: number;
}

interface TenantLanes<T> {
  id: string;
  weight: number;
  fresh: T[];
  resuming: T[];
  deficit: number;
  inTurn: boolean;
  active: boolean;
}

export function createDrr<T>(settings: DrrSettings<T>): Drr<T> {
  const tenants = new Map<string, TenantLanes<T>>();
  // Tenants with items waiting, in turn order.
  const turns: TenantLanes<T>[] = [];

  function lanesOf(id: string): TenantLanes<T> {
    let t = tenants.get(id);
    if (!t) {
      t = { id, weight: settings.weightOf(id), fresh: [], resuming: [], deficit: 0, inTurn: false, active: false };
      tenants.set(id, t);
    }
    return t;
  }

  const candidate = (t: TenantLanes<T>, freshAllowed: boolean): { item: T; lane: Lane } | null =>
    t.resuming.length > 0
      ? { item: t.resuming[0]!, lane: 'resuming' }
      : freshAllowed && t.fresh.length > 0
        ? { item: t.fresh[0]!, lane: 'fresh' }
        : null;

  function endTurn(): void {
    turns[0]!.inTurn = false;
    turns.push(turns.shift()!);
  }

  function leaveIfEmpty(t: TenantLanes<T>): void {
    if (t.fresh.length > 0 || t.resuming.length > 0) return;
    t.inTurn = false;
    t.active = false;
    t.deficit = 0;
    turns.splice(turns.indexOf(t), 1);
    // A tenant seen once and gone costs nothing lasting.
    tenants.delete(t.id);
  }

  return {
    add(tenant, item, lane) {
      const t = lanesOf(tenant);
      t[lane].push(item);
      if (!t.active) {
        t.active = true;
        turns.push(t);
      }
    },
    next(freshAllowed) {
      // Passed over in a row without an item that may be served: once every tenant was, there is none.
      let passed = 0;
      while (turns.length > 0 && passed < turns.length) {
        const t = turns[0]!;
        const next = candidate(t, freshAllowed);
        if (!next) {
          // Passed over, its turn (begun or not) kept: ending it would give the tenant a new quantum each time
          // the rotation came back round to it, so a head tenant passed over between every two starts was
          // served at every start and the others not at all (test/http/fairFlood.test.ts, issue 48).
          passed += 1;
          turns.push(turns.shift()!);
          continue;
        }
        passed = 0;
        if (!t.inTurn) {
          t.inTurn = true;
          t.deficit += settings.quantum * t.weight;
        }
        const cost = settings.estimate(next.item);
        if (cost > t.deficit) {
          // Its turn is over: to the back, its deficit kept for the next.
          endTurn();
          continue;
        }
        t[next.lane].shift();
        t.deficit -= cost;
        leaveIfEmpty(t);
        return { tenant: t.id, item: next.item, lane: next.lane };
      }
      return null;
    },
    correct(tenant, delta) {
      const t = tenants.get(tenant);
      // A refund (an item cheaper than its estimate) never credits more than one turn's quantum: with an
      // estimate far above the real costs, refunds would otherwise keep one tenant in its turn for good.
      if (t?.active) t.deficit = Math.min(t.deficit + delta, Math.max(t.deficit, settings.quantum * t.weight));
    },
    waiting: (tenant, lane) => tenants.get(tenant)?.[lane].length ?? 0,
    activeWeight(tenant) {
      let total = 0;
      for (const t of turns) total += t.weight;
      return { total, includes: tenants.get(tenant)?.active ?? false };
    },
  };
}
