// Original file: proto/gateway/video/v1/video.proto


export interface DeleteVideoResponse {
}

export interface DeleteVideoResponse__Output {
}
