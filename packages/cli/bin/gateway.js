#!/usr/bin/env node
// The `gateway` command. The compiled CLI lives in dist/; `npm run build` makes it.
import('../dist/main.js').then(
  ({ main }) => main(process.argv.slice(2)),
  (error) => {
    if (error && error.code === 'ERR_MODULE_NOT_FOUND') {
      process.stderr.write('gateway: not built yet; run `npm run build` (or `npm start`) first\n');
      process.exit(1);
    }
    throw error;
  },
);
