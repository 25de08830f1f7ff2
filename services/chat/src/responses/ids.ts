import { timeOrderedHex } from '@gateway/contracts';

export { newResponseId } from '@gateway/contracts';

// Ids of a response and of its output items, made like the gateway's completion ids: the time
// first, so stored responses sort by creation, then 80 random bits.

export type ItemIdPrefix = 'msg' | 'fc' | 'fco' | 'rs' | 'call' | 'item';

/** `msg_…`, `fc_…`, `fco_…` (a tool's output), `rs_…`; `call_…` for a tool call whose upstream gave it no id; `item_…` for any other input item. */
export function newItemId(prefix: ItemIdPrefix): string {
  return `${prefix}_${timeOrderedHex()}`;
}
