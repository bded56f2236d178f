import { describe, expect, it } from 'vitest';
import { check as sharedValue, connectionsFrom } from '../../src/checks/graphCheck.js';
import type { GraphNeighbourhood } from '../../src/checks/types.js';
import { runOn, verdict } from './support.js';
import { without } from '../support/objects.js';

const GRAPH: GraphNeighbourhood = {
  shared: [
    { type: 'EMAIL', value: 'Jane@Example.com', normalised: 'jane@example.com', otherEntities: 0 },
    { type: 'PHONE', value: '+44 7400 123456', normalised: '+447400123456', otherEntities: 1 },
    { type: 'IP', value: '203.0.113.9', normalised: '203.0.113.9', otherEntities: 7 },
  ],
};

describe('shared_value', () => {
  it.each([
    ['a value no other entity carries', 'EMAIL', 'jane@example.com', 'neutral'],
    ['a value not in the neighbourhood at all', 'EMAIL', 'other@example.com', 'neutral'],
    ['a value shared with one other entity', 'PHONE', '+44 7400 123456', 'neutral'],
    ['a value shared with seven other entities', 'IP', '203.0.113.9', 'weakens'],
  ])('given %s, when checked, then it %s', async (_given, type, value, expected) => {
    expect(verdict(await runOn(sharedValue, type, value, { env: { graph: GRAPH } }))).toBe(expected);
  });

  it('given no graph loaded, then there is nothing to say', async () => {
    expect(verdict(await runOn(sharedValue, 'IP', '203.0.113.9'))).toBe('nothing');
  });

  it('words the count without naming anyone else', async () => {
    const result = await runOn(sharedValue, 'IP', '203.0.113.9', { env: { graph: GRAPH } });
    expect(result.signals[0]!.statement).toBe('The same IP address is on record for 7 other entities of the tenant.');
  });
});

describe('connectionsFrom', () => {
  it('given shared values, then one edge per shared value, to a type label only', () => {
    const connections = connectionsFrom(GRAPH);
    expect(connections.map((connection) => without(connection, 'connection_id'))).toEqual([
      {
        relation: 'shares_value',
        from_label: '+44 7400 123456',
        from_type: 'PHONE',
        to_label: 'ENTITY',
        to_type: 'ENTITY',
        weight: 0.5,
        reason: 'The same phone number is on record for 1 other entity of the tenant.',
      },
      {
        relation: 'shares_value',
        from_label: '203.0.113.9',
        from_type: 'IP',
        to_label: 'ENTITY',
        to_type: 'ENTITY',
        weight: 0.875,
        reason: 'The same IP address is on record for 7 other entities of the tenant.',
      },
    ]);
  });

  it('gives stable, distinct ids', () => {
    const first = connectionsFrom(GRAPH).map((edge) => edge.connection_id);
    const again = connectionsFrom(structuredClone(GRAPH)).map((edge) => edge.connection_id);
    expect(again).toEqual(first);
    expect(new Set(first).size).toBe(first.length);
    expect(first[0]).toMatch(/^conn_[0-9a-f]{32}$/);
  });

  it('given no graph, then no edges', () => {
    expect(connectionsFrom(undefined)).toEqual([]);
  });
});
