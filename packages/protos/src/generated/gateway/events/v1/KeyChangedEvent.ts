// Original file: proto/gateway/events/v1/events.proto

import type { KeyChange as _gateway_events_v1_KeyChange, KeyChange__Output as _gateway_events_v1_KeyChange__Output } from '../../../gateway/events/v1/KeyChange.js';

/**
 * A key was created, revoked or changed (broadcast on keys.v1.changed): edges drop what they
 * cached for it. A team change names the team and no key: edges drop every key of that team.
 */
export interface KeyChangedEvent {
  'key_id'?: (string);
  'change'?: (_gateway_events_v1_KeyChange);
  'team_id'?: (string);
}

/**
 * A key was created, revoked or changed (broadcast on keys.v1.changed): edges drop what they
 * cached for it. A team change names the team and no key: edges drop every key of that team.
 */
export interface KeyChangedEvent__Output {
  'key_id': (string);
  'change': (_gateway_events_v1_KeyChange__Output);
  'team_id': (string);
}
