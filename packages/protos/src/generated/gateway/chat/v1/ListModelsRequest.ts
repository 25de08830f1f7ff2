// Original file: proto/gateway/chat/v1/chat.proto


export interface ListModelsRequest {
}

export interface ListModelsRequest__Output {
}
