// TypeBox (schemas and their compiled validators) for the gateway's code, which imports it from
// here only. TypeBox ships as some 540 ES modules; a process loading them holds 14-19 MiB more
// RSS than one loading the same code as a single module (an ES module costs ~26 KiB of its own),
// and every service loads it (the configuration's schema). `npm run build` therefore replaces the
// compiled dist/index.js with TypeBox bundled into that one file (bundle.mjs); types, and the
// behaviour of a build without that step, are TypeBox's own.
export * from 'typebox';
export { default } from 'typebox';
export { Compile } from 'typebox/schema';
