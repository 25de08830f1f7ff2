// Loaded into a gateway process with `--import` by `bench/profile.mjs` (PROFILE_KIND=alloc): the
// first SIGUSR2 starts V8's sampling heap profiler, counting objects the young and old
// collections already freed too (so it sees what a call allocates, not what stays), and the
// second writes the samples to $ALLOCATION_PROFILE and stops.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    });
    return;
  }
  session.post('HeapProfiler.stopSampling', (error, result) => {
    sampling = false;
    writeFileSync(process.env.ALLOCATION_PROFILE ?? 'allocations.json', JSON.stringify(error ? { error: String(error) } : result.profile));
  });
});
