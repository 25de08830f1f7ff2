// Original file: proto/gateway/video/v1/video.proto


export interface ResolveVideoContentRequest {
  'key_id'?: (string);
  'video_id'?: (string);
  /**
   * The address given last time was refused: fetch a fresh one from the provider.
   */
  'refresh'?: (boolean);
}

export interface ResolveVideoContentRequest__Output {
  'key_id': (string);
  'video_id': (string);
  /**
   * The address given last time was refused: fetch a fresh one from the provider.
   */
  'refresh': (boolean);
}
