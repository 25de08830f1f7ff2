// Original file: proto/gateway/chat/v1/chat.proto


export interface GetUpstreamHealthRequest {
}

export interface GetUpstreamHealthRequest__Output {
}
