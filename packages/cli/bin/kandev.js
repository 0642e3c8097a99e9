#!/usr/bin/env node
// Committed so pnpm can link `kandev` at install time, before the TypeScript build exists.
'use strict';
try {
  require.resolve('../dist/main.js');
} catch {
  process.stderr.write('kandev: the CLI is not built yet; run `npm run build` in the repository first\n');
  process.exit(1);
}
require('../dist/main.js').main(process.argv);
