// Original file: proto/gateway/chat/v1/chat.proto


export interface CreateResponseRequest {
  'key_id'?: (string);
  /**
   * As the caller sent it; echoed in the response.
   */
  'model'?: (string);
  /**
   * The Responses request body as the caller sent it (JSON).
   */
  'body'?: (Buffer | Uint8Array | string);
  'group'?: (string);
  /**
   * "resp_…", chosen by the edge so a repeated call is billed once.
   */
  'response_id'?: (string);
  /**
   * The operator keeps no responses for this key (or for any): `store` defaults to false and
   * `store: true` is refused.
   */
  'storage_off'?: (boolean);
}

export interface CreateResponseRequest__Output {
  'key_id': (string);
  /**
   * As the caller sent it; echoed in the response.
   */
  'model': (string);
  /**
   * The Responses request body as the caller sent it (JSON).
   */
  'body': (Buffer);
  'group': (string);
  /**
   * "resp_…", chosen by the edge so a repeated call is billed once.
   */
  'response_id': (string);
  /**
   * The operator keeps no responses for this key (or for any): `store` defaults to false and
   * `store: true` is refused.
   */
  'storage_off': (boolean);
}
