#!/usr/bin/env node
// The `tas` command. The service runs its TypeScript sources through tsx's
// loader, so a fresh clone needs no separate build step to start.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
