import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The dashboard's build: one script and one style sheet with hashed names under dist/ui/assets,
// and an index.html that only links them (no inline script or style: the edge serves the page
// under a Content-Security-Policy that allows neither). The edge serves dist/ui at /ui/.
// `npm run dev -w @gateway/dashboard` serves the page with reloads, the API proxied to a gateway
// on GATEWAY_URL (default http://127.0.0.1:4000).

const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/ui/',
  // Preact's JSX through Vite's own transformer: no Babel, no preset.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist/ui',
    emptyOutDir: true,
    target: 'es2022',
    // One entry chunk: the preload polyfill would be dead weight.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 200,
  },
  server: {
    proxy: { '/v1': gateway, '/admin': gateway, '/ui/config.json': gateway },
  },
});
