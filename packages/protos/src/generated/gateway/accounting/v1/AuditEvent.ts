// Original file: proto/gateway/accounting/v1/accounting.proto

import type { Long } from '@grpc/proto-loader';

export interface AuditEvent {
  'id'?: (string);
  'created_at_ms'?: (number | string | Long);
  /**
   * "key.created", "key.updated", "key.rotated", "key.revoked", "team.created", "team.updated",
   * "team.deleted".
   */
  'action'?: (string);
  'target_id'?: (string);
  'route'?: (string);
  'request_id'?: (string);
  /**
   * JSON object: each changed field's {"from": …, "to": …}. Never a secret.
   */
  'changes_json'?: (string);
}

export interface AuditEvent__Output {
  'id': (string);
  'created_at_ms': (number);
  /**
   * "key.created", "key.updated", "key.rotated", "key.revoked", "team.created", "team.updated",
   * "team.deleted".
   */
  'action': (string);
  'target_id': (string);
  'route': (string);
  'request_id': (string);
  /**
   * JSON object: each changed field's {"from": …, "to": …}. Never a secret.
   */
  'changes_json': (string);
}
