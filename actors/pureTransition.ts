import {
  createActor,
  initialTransition as xstateInitialTransition,
  transition as xstateTransition,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventObject,
} from 'xstate';
import type { ExecutableAction } from './actions.js';

/**
 * XState's pure `initialTransition` and `transition` (DESIGN.md 2.1), without
 * an actor per call. XState's own build a throw-away actor for every call
 * (`createInertActorScope`: an `Actor`, whose constructor computes the
 * machine's initial snapshot once more, and a fresh system), so opening an
 * inquiry made three initial snapshots and two actors to take two steps
 * (issue 37). Here each machine gets ONE inert scope, made on first use; a
 * call swaps in its own action collector and calls the machine's own
 * `getInitialSnapshot` / `transition` with it, exactly what XState's
 * functions do after building their scope. Transitions are synchronous, so
 * no two calls share the collector.
 *
 * Valid for machines that never invoke or spawn a child (every machine of
 * this service today): a child would register in the shared scope's system.
 * A machine with an `invoke` anywhere, or a step that leaves children in its
 * snapshot, is computed again by XState's own functions, so the answer is
 * XState's either way.
 *
 * It relies on XState's internals of one version (the scope a machine's
 * `transition` takes), so xstate is pinned exactly in package.json, and
 * test/actors/pureTransition.test.ts compares both on paths of all four
 * machines of the runtime (inquiry, case, monitor, session): an upgrade that
 * changes the scope fails there, not in production. Why not XState's public
 * functions, which return the same actions without executing them: each
 * builds an actor whose initial snapshot, taken without input, fails with a
 * TypeError that is thrown and kept, on every call; measured in
 * docs/design-decisions.md (issue 49, typed actors).
 */
/** The scope a machine's own `getInitialSnapshot` and `transition` take. */
type MachineScope = Parameters<AnyStateMachine['transition']>[2];

interface InertScope {
  scope: MachineScope;
  collect: (into: ExecutableAction[]) => void;
}

const scopes = new WeakMap<AnyStateMachine, InertScope | null>();

type Node = AnyStateMachine['root'];
function invokesAnything(node: Node): boolean {
  return node.invoke.length > 0 || Object.values(node.states).some((child) => invokesAnything(child));
}

function inertScopeOf(machine: AnyStateMachine): InertScope | null {
  const known = scopes.get(machine);
  if (known !== undefined) return known;
  let made: InertScope | null = null;
  if (!invokesAnything(machine.root)) {
    const self = createActor(machine);
    let sink: ExecutableAction[] = [];
    const scope = {
      self,
      defer: () => undefined,
      id: '',
      logger: () => undefined,
      sessionId: '',
      stopChild: () => undefined,
      system: self.system,
      emit: () => undefined,
      actionExecutor: (action: ExecutableAction) => void sink.push(action),
    } as unknown as MachineScope;
    made = { scope, collect: (into) => (sink = into) };
  }
  scopes.set(machine, made);
  return made;
}

// AnyMachineSnapshot types `children` as any; a snapshot's children are a record of actor refs.
const childless = (s: AnyMachineSnapshot) => Object.keys(s.children as Record<string, unknown>).length === 0;

export function initialTransition(machine: AnyStateMachine, input: unknown): [AnyMachineSnapshot, ExecutableAction[]] {
  const inert = inertScopeOf(machine);
  if (inert) {
    const actions: ExecutableAction[] = [];
    inert.collect(actions);
    const snapshot = machine.getInitialSnapshot(inert.scope, input) as AnyMachineSnapshot;
    inert.collect([]);
    if (childless(snapshot)) return [snapshot, actions];
  }
  return xstateInitialTransition(machine, input) as [AnyMachineSnapshot, ExecutableAction[]];
}

export function transition(
  machine: AnyStateMachine,
  snapshot: AnyMachineSnapshot,
  event: EventObject,
): [AnyMachineSnapshot, ExecutableAction[]] {
  const inert = inertScopeOf(machine);
  if (inert) {
    const actions: ExecutableAction[] = [];
    inert.collect(actions);
    const next = machine.transition(snapshot, event, inert.scope) as AnyMachineSnapshot;
    inert.collect([]);
    if (childless(next)) return [next, actions];
  }
  return xstateTransition(machine, snapshot, event) as [AnyMachineSnapshot, ExecutableAction[]];
}
