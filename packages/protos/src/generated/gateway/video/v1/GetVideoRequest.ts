// Original file: proto/gateway/video/v1/video.proto


export interface GetVideoRequest {
  'key_id'?: (string);
  'video_id'?: (string);
}

export interface GetVideoRequest__Output {
  'key_id': (string);
  'video_id': (string);
}
