// Original file: proto/gateway/video/v1/video.proto


export interface CreateVideoRequest {
  'key_id'?: (string);
  'model'?: (string);
  'prompt'?: (string);
  'seconds'?: (number);
  'resolution'?: (string);
  'ratio'?: (string);
  /**
   * One image URL used as the first frame.
   */
  'input_reference'?: (string);
}

export interface CreateVideoRequest__Output {
  'key_id': (string);
  'model': (string);
  'prompt': (string);
  'seconds': (number);
  'resolution': (string);
  'ratio': (string);
  /**
   * One image URL used as the first frame.
   */
  'input_reference': (string);
}
