import { fileURLToPath } from 'node:url';

// The dashboard's built files, as the edge finds them. Vite builds the page (src/app) into
// dist/ui; tsc builds this file into dist/index.js. From either place the path below is the
// package's dist/ui.

/** The folder holding index.html and assets/ after `npm run build`; absent before. */
export const dashboardAssetsDir = fileURLToPath(new URL('../dist/ui/', import.meta.url));
