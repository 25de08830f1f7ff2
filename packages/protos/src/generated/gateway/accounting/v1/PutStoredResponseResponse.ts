// Original file: proto/gateway/accounting/v1/accounting.proto


export interface PutStoredResponseResponse {
}

export interface PutStoredResponseResponse__Output {
}
