#!/usr/bin/env node
// The `tas` command. The service runs its TypeScript sources through tsx's
// loader, so a fresh clone needs no separate build step to start.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
// Exit explicitly: a failed start may leave a reconnecting client holding the event loop open.
process.exit(await main(process.argv.slice(2)));
