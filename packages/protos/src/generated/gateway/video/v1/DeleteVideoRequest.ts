// Original file: proto/gateway/video/v1/video.proto


export interface DeleteVideoRequest {
  'key_id'?: (string);
  'video_id'?: (string);
}

export interface DeleteVideoRequest__Output {
  'key_id': (string);
  'video_id': (string);
}
