// A ModelArk simulator serving 1 GiB clips, in its own process; prints {"url": ...}.
import { VideoSimulator } from '@gateway/simulators';

const sim = new VideoSimulator({
  protocol: 'ark',
  credential: 'bench-credential',
  models: ['seedance-bench'],
  queuedPolls: 0,
  runningPolls: 1,
  clipBytes: Number(process.env.CLIP_BYTES || 1024 ** 3),
  record: false,
});
process.stdout.write(`${JSON.stringify({ url: await sim.listen() })}\n`);
process.on('SIGTERM', () => process.exit(0));
