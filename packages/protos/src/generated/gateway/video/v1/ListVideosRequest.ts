// Original file: proto/gateway/video/v1/video.proto


export interface ListVideosRequest {
  'key_id'?: (string);
  /**
   * At most this many; 0: 20, capped at 100.
   */
  'page_size'?: (number);
  /**
   * The last job id of the previous page; empty for the first.
   */
  'after'?: (string);
  /**
   * True: oldest first.
   */
  'ascending'?: (boolean);
}

export interface ListVideosRequest__Output {
  'key_id': (string);
  /**
   * At most this many; 0: 20, capped at 100.
   */
  'page_size': (number);
  /**
   * The last job id of the previous page; empty for the first.
   */
  'after': (string);
  /**
   * True: oldest first.
   */
  'ascending': (boolean);
}
