// Original file: proto/gateway/video/v1/video.proto


export interface GetUpstreamHealthRequest {
}

export interface GetUpstreamHealthRequest__Output {
}
