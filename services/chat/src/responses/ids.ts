import { timeOrderedHex } from '@gateway/contracts';

// Ids of a response and of its output items, made like the gateway's completion ids: the time
// first, so stored responses sort by creation, then 80 random bits.

export type ItemIdPrefix = 'msg' | 'fc' | 'rs' | 'call';

/** `msg_…`, `fc_…`, `rs_…`; `call_…` for a tool call whose upstream gave it no id. */
export function newItemId(prefix: ItemIdPrefix): string {
  return `${prefix}_${timeOrderedHex()}`;
}

/** `resp_` and 32 hex digits. */
export function newResponseId(): string {
  return `resp_${timeOrderedHex()}`;
}
