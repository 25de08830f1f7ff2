// Original file: proto/gateway/accounting/v1/accounting.proto


export interface DeleteTeamResponse {
}

export interface DeleteTeamResponse__Output {
}
