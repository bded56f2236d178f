import { describe, expect, it } from 'vitest';
import { hostMemo } from '../../src/checks/hostMemo.js';

describe("a host's answer, worked out once", () => {
  it('computes a host and wording once, and each other pair on its own', () => {
    const asked: string[] = [];
    const answer = hostMemo(10, (host, what) => {
      asked.push(`${what} ${host}`);
      return { statement: `The ${what} at ${host}` };
    });
    const first = answer('gmail.com', 'email address');
    expect(answer('gmail.com', 'email address')).toBe(first);
    expect(answer('gmail.com', 'domain')).toEqual({ statement: 'The domain at gmail.com' });
    expect(answer('example.org', 'email address')).toEqual({ statement: 'The email address at example.org' });
    expect(asked).toEqual(['email address gmail.com', 'domain gmail.com', 'email address example.org']);
  });

  it('holds at most its limit, forgetting the oldest first', () => {
    let computed = 0;
    const answer = hostMemo(2, (host) => {
      computed += 1;
      return host;
    });
    answer('a.example', 'domain');
    answer('b.example', 'domain');
    answer('c.example', 'domain');
    expect(computed).toBe(3);
    answer('c.example', 'domain');
    answer('b.example', 'domain');
    expect(computed).toBe(3);
    answer('a.example', 'domain');
    expect(computed).toBe(4);
  });
});
