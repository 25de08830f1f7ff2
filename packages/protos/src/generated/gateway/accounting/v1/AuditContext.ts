// Original file: proto/gateway/accounting/v1/accounting.proto


/**
 * Who changed something through the admin API, for the audit list.
 */
export interface AuditContext {
  /**
   * Method and route template, e.g. "PATCH /admin/v1/keys/{id}".
   */
  'route'?: (string);
  'request_id'?: (string);
}

/**
 * Who changed something through the admin API, for the audit list.
 */
export interface AuditContext__Output {
  /**
   * Method and route template, e.g. "PATCH /admin/v1/keys/{id}".
   */
  'route': (string);
  'request_id': (string);
}
