// Original file: proto/gateway/video/v1/video.proto


export interface ListModelsRequest {
}

export interface ListModelsRequest__Output {
}
