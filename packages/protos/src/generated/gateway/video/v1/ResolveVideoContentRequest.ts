// Original file: proto/gateway/video/v1/video.proto


export interface ResolveVideoContentRequest {
  'key_id'?: (string);
  'video_id'?: (string);
}

export interface ResolveVideoContentRequest__Output {
  'key_id': (string);
  'video_id': (string);
}
