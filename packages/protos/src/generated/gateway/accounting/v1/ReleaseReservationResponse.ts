// Original file: proto/gateway/accounting/v1/accounting.proto


export interface ReleaseReservationResponse {
}

export interface ReleaseReservationResponse__Output {
}
