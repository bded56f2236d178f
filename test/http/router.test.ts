import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/edge/router.js';

describe('router', () => {
  const router = createRouter<string>();
  router.add('post', '/v1/observations', 'create');
  router.add('post', '/v1/observations/batch', 'batch');
  router.add('get', '/v1/inquiries/{inquiry_id}', 'get');
  router.add('get', '/v1/monitors/{monitor_id}', 'getMonitor');
  router.add('delete', '/v1/monitors/{monitor_id}', 'deleteMonitor');

  it.each([
    ['POST', '/v1/observations/batch', 'batch', {}],
    ['GET', '/v1/inquiries/abc', 'get', { inquiry_id: 'abc' }],
    ['DELETE', '/v1/monitors/x%20y', 'deleteMonitor', { monitor_id: 'x y' }],
  ])('given %s %s, then it matches %s', (method, path, route, params) => {
    expect(router.lookup(method, path)).toEqual({ kind: 'match', match: { route, params } });
  });

  it('given a known path with another method, then it answers 405 with the allowed ones', () => {
    expect(router.lookup('PUT', '/v1/monitors/1')).toEqual({ kind: 'method-not-allowed', allow: ['DELETE', 'GET', 'HEAD'] });
    expect(router.lookup('GET', '/v1/observations/batch')).toEqual({ kind: 'method-not-allowed', allow: ['POST'] });
    // HEAD is served by the GET route.
    expect(router.lookup('HEAD', '/v1/monitors/1')).toMatchObject({ kind: 'match' });
  });

  it('given an unknown path or a bad escape, then it is not found', () => {
    expect(router.lookup('GET', '/v1/nothing')).toEqual({ kind: 'not-found' });
    expect(router.lookup('GET', '/v1/inquiries/%E0%A4%A')).toEqual({ kind: 'not-found' });
  });
});
