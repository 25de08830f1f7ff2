// Original file: proto/gateway/accounting/v1/accounting.proto


export interface DeleteStoredResponseResponse {
}

export interface DeleteStoredResponseResponse__Output {
}
