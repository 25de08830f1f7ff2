// Original file: proto/gateway/accounting/v1/accounting.proto


export interface ReleaseReservationRequest {
  'reservation_id'?: (string);
}

export interface ReleaseReservationRequest__Output {
  'reservation_id': (string);
}
