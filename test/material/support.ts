import { MaterialOut } from '../../src/material/schemas.js';
import { bearer, type TestService } from '../support/service.js';
import { eventually } from '../support/wait.js';

/** What the material tests share: a JSON call with a key, and waiting for the worker on the material's own status. */
export async function callAs(
  ts: TestService,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const res = await fetch(`${ts.base}${path}`, {
    method,
    headers: { ...bearer(key), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Waits until the worker has finished with the material (no sleep as a guess: the status row says when). */
export async function settledMaterial(ts: TestService, key: string, id: string): Promise<MaterialOut> {
  return eventually(
    async () => {
      const out = MaterialOut.parse((await callAs(ts, key, 'GET', `/v1/material/${id}`)).body);
      return (out.status === 'extracted' || out.status === 'failed') && out;
    },
    { timeout: 60_000, interval: 100, what: `material ${id} settling` },
  );
}
