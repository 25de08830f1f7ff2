#!/usr/bin/env -S MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=32768 node --max-semi-space-size=16 --heap-growing-percent=50
// The `gateway` command. The compiled CLI lives in dist/; `npm run build` makes it.
// Its Node flags (above; the Dockerfile's ENTRYPOINT has the same), measured in bench/history/2026-11-28-results-diary.md (memory runs):
// - a young generation of 16 MiB semi-spaces. Node's default on a large machine is larger: at
//   load its scavenges took about 5 ms each and the one-process start held 50 MiB more, for no
//   more throughput;
// - the old generation may grow to 1.5 times what survived the last full collection before the
//   next one, where V8 would otherwise let it reach several times that: about 100 MiB less at
//   load, for ~2% more CPU. It is not a cap: a heap that needs more still gets it.
// - MALLOC_ARENA_MAX=2 (the Dockerfile sets it too): glibc otherwise gives each of Node's threads
//   a malloc arena of its own, and the memory V8's compiler threads free after the warm-up stays
//   spread over them; with two, the one-process start held 10-30 MiB less at load, no CPU lost.
// - MALLOC_MMAP_THRESHOLD_=32768: blocks of 32 KiB and more come from the system on their own
//   and go back to it when freed. glibc's default threshold grows once such blocks are freed,
//   after which they are carved from the arenas, where what the warm-up freed stays. At load the
//   one-process start peaked 180-186 MiB instead of 191-227, chat 5 MiB lower, no CPU lost.
//   These two override a value of the caller's environment; run `node FLAGS bin/gateway.js` to set others.
// `gateway start --separate` gives its children the same flags but 8 MiB semi-spaces (a service
// allocates a fraction of what the one process does per call: less memory, no throughput lost),
// one V8 worker thread (services share cores) and, from Node 22 on, TurboFan's compiles on the
// main thread (less memory at load, for the same CPU): see serviceNodeFlags in src/processes.ts.
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
