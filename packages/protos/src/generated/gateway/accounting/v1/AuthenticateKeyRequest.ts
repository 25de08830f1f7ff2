// Original file: proto/gateway/accounting/v1/accounting.proto


export interface AuthenticateKeyRequest {
  /**
   * Lowercase hex SHA-256 of the presented secret.
   */
  'key_hash'?: (string);
}

export interface AuthenticateKeyRequest__Output {
  /**
   * Lowercase hex SHA-256 of the presented secret.
   */
  'key_hash': (string);
}
