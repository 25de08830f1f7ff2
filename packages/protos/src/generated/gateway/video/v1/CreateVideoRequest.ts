// Original file: proto/gateway/video/v1/video.proto


export interface CreateVideoRequest {
  /**
   * The authenticated caller.
   */
  'key_id'?: (string);
  /**
   * As the caller sent it (a group id or alias); echoed in the job.
   */
  'model'?: (string);
  'prompt'?: (string);
  /**
   * As the caller sent it: "8" or 8 both arrive as "8"; the video service validates it.
   */
  'seconds'?: (string);
  /**
   * Empty: the group's default.
   */
  'resolution'?: (string);
  /**
   * Empty: the group's default (or, with an image, the image's).
   */
  'ratio'?: (string);
  /**
   * One image URL used as the first frame; empty for text-to-video.
   */
  'input_reference'?: (string);
  /**
   * The group id `model` resolved to at the edge (which checked the key may call it).
   */
  'group'?: (string);
  /**
   * "WxH" as OpenAI clients send it; empty: none. Matched against the group's resolutions and
   * ratios (a mismatch, or a conflict with `resolution`/`ratio`, is INVALID_ARGUMENT naming `size`).
   */
  'size'?: (string);
}

export interface CreateVideoRequest__Output {
  /**
   * The authenticated caller.
   */
  'key_id': (string);
  /**
   * As the caller sent it (a group id or alias); echoed in the job.
   */
  'model': (string);
  'prompt': (string);
  /**
   * As the caller sent it: "8" or 8 both arrive as "8"; the video service validates it.
   */
  'seconds': (string);
  /**
   * Empty: the group's default.
   */
  'resolution': (string);
  /**
   * Empty: the group's default (or, with an image, the image's).
   */
  'ratio': (string);
  /**
   * One image URL used as the first frame; empty for text-to-video.
   */
  'input_reference': (string);
  /**
   * The group id `model` resolved to at the edge (which checked the key may call it).
   */
  'group': (string);
  /**
   * "WxH" as OpenAI clients send it; empty: none. Matched against the group's resolutions and
   * ratios (a mismatch, or a conflict with `resolution`/`ratio`, is INVALID_ARGUMENT naming `size`).
   */
  'size': (string);
}
