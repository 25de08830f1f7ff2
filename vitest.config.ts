import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests run the TypeScript sources: each workspace package name resolves to its src/index.ts.
const root = fileURLToPath(new URL('.', import.meta.url));
const alias: Record<string, string> = {};
for (const folder of ['packages', 'services']) {
  for (const name of readdirSync(`${root}${folder}`)) {
    const entry = `${root}${folder}/${name}/src/index.ts`;
    if (existsSync(entry)) alias[`@gateway/${name}`] = entry;
  }
}

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['packages/*/{src,test}/**/*.test.ts', 'services/*/{src,test}/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Integration tests start servers on port 0 and temp folders; files still run in parallel.
    pool: 'forks',
  },
});
