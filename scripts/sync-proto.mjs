#!/usr/bin/env node
// Copies proto/ into packages/protocol/proto so the protocol package carries its contract with it
// (its loader resolves the .proto next to itself, also inside a pruned container bundle).
import { cpSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const from = fileURLToPath(new URL('../proto', import.meta.url));
const to = fileURLToPath(new URL('../packages/protocol/proto', import.meta.url));
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
