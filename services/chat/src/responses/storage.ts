import type { AccountingClient, StoredResponseRecord } from '@gateway/contracts';
import type { CallContext } from '@gateway/grpc';

// Stored responses as the chat service reaches them: through accounting, which owns the store
// (docs/responses.md, "Stored responses"), so any chat replica continues any conversation.

export type { StoredResponseRecord };

/** The call's request, trace, deadline and signal: a lookup never outlives the call it is for. */
export type StoreContext = Pick<CallContext, 'requestId' | 'scope' | 'deadline' | 'signal'>;

export interface ResponseStore {
  put(record: StoredResponseRecord, context: StoreContext): Promise<void>;
  /** Undefined when absent, expired or another key's. */
  get(keyId: string, id: string, context: StoreContext): Promise<StoredResponseRecord | undefined>;
}

/** Accounting's stored responses as this service's store. */
export function accountingResponseStore(client: Pick<AccountingClient, 'putStoredResponse' | 'getStoredResponse'>): ResponseStore {
  return {
    put: (record, context) => client.putStoredResponse(record, context),
    get: (keyId, id, context) => client.getStoredResponse(keyId, id, context),
  };
}
