// What each vendor's video API accepts, as the simulator checks it.

/** Seedance 2.5 output sizes, [width, height] by resolution and ratio (`adaptive` is billed as 16:9). */
export const ARK_PIXELS: Record<string, Record<string, [number, number]>> = {
  '480p': { '16:9': [854, 480], '4:3': [752, 560], '1:1': [640, 640], '3:4': [560, 752], '9:16': [480, 854], '21:9': [992, 432] },
  '720p': { '16:9': [1280, 720], '4:3': [1112, 834], '1:1': [960, 960], '3:4': [834, 1112], '9:16': [720, 1280], '21:9': [1470, 630] },
  '1080p': {
    '16:9': [1920, 1080],
    '4:3': [1664, 1248],
    '1:1': [1440, 1440],
    '3:4': [1248, 1664],
    '9:16': [1080, 1920],
    '21:9': [2206, 946],
  },
};

export const FPS = 24;
export const ARK_PREFIX = '/api/v3/contents/generations/tasks';
export const ARK_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'content',
  'resolution',
  'ratio',
  'duration',
  'watermark',
  'seed',
  'camera_fixed',
  'return_last_frame',
  'callback_url',
]);
export const ARK_RATIOS: ReadonlySet<string> = new Set(['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive']);
export const MINIMAX_FIELDS: ReadonlySet<string> = new Set([
  'model',
  'content',
  'resolution',
  'duration',
  'ratio',
  'prompt_optimizer',
  'callback_url',
]);
export const MINIMAX_RESOLUTIONS: ReadonlySet<string> = new Set(['480P', '768P', '1080P', '2K']);
export const MINIMAX_RATIOS: ReadonlySet<string> = new Set(['16:9', '9:16', '1:1', '4:3', '3:4', '21:9']);
export const MINIMAX_PROMPT_LIMIT = 7000;
