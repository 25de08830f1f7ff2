import type { VideoGroupConfig } from '@gateway/config';
import { GatewayError } from '@gateway/errors';
import type { RenderRequest, VideoProvider } from '../providers/index.js';

export interface CreateInput {
  prompt: string;
  /** As sent: "8" (multipart, JSON string) or "8" from a JSON number. */
  seconds: string;
  resolution: string;
  ratio: string;
  inputReference: string;
  /** "WxH" as OpenAI clients send it; empty: none. */
  size?: string;
}

function invalid(param: string, message: string): GatewayError {
  return new GatewayError('invalid_request', { param, message: `Invalid value for '${param}': ${message}` });
}

/**
 * The resolution and ratio a `size` ("WxH", what the OpenAI SDK sends) names: the group's pair
 * whose output is exactly that many pixels. None given: undefined; no such pair, or one that
 * contradicts an explicit `resolution` or `ratio`: 422 naming `size` with the sizes there are.
 */
function sizeOf(input: CreateInput, group: VideoGroupConfig, provider: VideoProvider): { resolution: string; ratio: string } | undefined {
  const size = (input.size ?? '').trim();
  if (size === '') return undefined;
  const spec = group.video;
  const pairs = spec.resolutions.flatMap((resolution) =>
    spec.ratios.map((ratio) => ({ resolution, ratio, pixels: provider.pixels(resolution, ratio) })),
  );
  const known = pairs.filter((p) => p.pixels).map((p) => `${p.pixels?.[0]}x${p.pixels?.[1]}`);
  const match = /^(\d{1,5})x(\d{1,5})$/.exec(size);
  const found = match ? pairs.find((p) => p.pixels?.[0] === Number(match[1]) && p.pixels?.[1] === Number(match[2])) : undefined;
  if (!found) {
    throw invalid('size', `must be one of ${[...new Set(known)].join(', ')} for model '${group.id}' (width x height in pixels).`);
  }
  if ((input.resolution !== '' && input.resolution !== found.resolution) || (input.ratio !== '' && input.ratio !== found.ratio)) {
    throw invalid('size', `is ${found.resolution} at ${found.ratio}, which contradicts the resolution or ratio also given.`);
  }
  return { resolution: found.resolution, ratio: found.ratio };
}

/** The group's rules for a new job; any failure is a 422 and nothing is created upstream. */
export function validateCreate(input: CreateInput, group: VideoGroupConfig, provider: VideoProvider): RenderRequest {
  const spec = group.video;
  const prompt = input.prompt.trim();
  if (prompt === '') throw invalid('prompt', 'is required.');
  if (prompt.length > provider.maxPromptChars) throw invalid('prompt', `must be at most ${provider.maxPromptChars} characters.`);

  if (input.seconds === '') throw invalid('seconds', 'is required.');
  const seconds = /^\d+(\.0+)?$/.test(input.seconds.trim()) ? Number(input.seconds) : NaN;
  if (!Number.isInteger(seconds) || seconds < spec.minSeconds || seconds > spec.maxSeconds) {
    throw invalid('seconds', `must be a whole number from ${spec.minSeconds} to ${spec.maxSeconds} for model '${group.id}'.`);
  }

  const sized = sizeOf(input, group, provider);
  const resolution = sized?.resolution ?? (input.resolution === '' ? spec.defaultResolution : input.resolution);
  if (!spec.resolutions.includes(resolution)) {
    throw invalid('resolution', `must be one of ${spec.resolutions.join(', ')} for model '${group.id}' (spelled exactly so).`);
  }

  let imageUrl: string | undefined;
  if (input.inputReference !== '') {
    if (spec.imageInput !== 'first_frame') throw invalid('input_reference', `model '${group.id}' does not take an image.`);
    if (!/^https?:\/\/\S+$/.test(input.inputReference)) throw invalid('input_reference', 'must be one http(s) image URL.');
    imageUrl = input.inputReference;
  }

  let ratio: string | undefined;
  if (input.ratio !== '' && !spec.ratios.includes(input.ratio)) {
    throw invalid('ratio', `must be one of ${spec.ratios.join(', ')} for model '${group.id}'.`);
  }
  // With a first-frame image the ratio follows the image; a ratio given alongside is not used.
  if (!imageUrl) ratio = sized?.ratio ?? (input.ratio === '' ? (spec.ratios.includes('16:9') ? '16:9' : spec.ratios[0]) : input.ratio);

  return { prompt, seconds, resolution, ratio, imageUrl };
}
