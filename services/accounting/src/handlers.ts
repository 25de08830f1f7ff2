import type { AccountingServiceHandlers } from '@gateway/protos';
import { keyMessage } from './messages.js';
import { auditHandlers } from './handlers/audit.js';
import { budgetHandlers } from './handlers/budget.js';
import { handlerContext, type HandlerDeps } from './handlers/context.js';
import { keyHandlers } from './handlers/keys.js';
import { spendHandlers } from './handlers/spend.js';
import { storedResponseHandlers } from './handlers/stored-responses.js';
import { teamHandlers } from './handlers/teams.js';

// The gRPC handlers of gateway.accounting.v1.AccountingService: requests to domain calls and
// back; app.ts wires them. Each RPC family builds its handlers in handlers/ from the shared
// context; admin changes and their audit entries are written together.

export type { HandlerDeps };
export { keyMessage };

/** The service's handlers, each wrapped by `server.unary` (errors to statuses, scope, metrics). */
export function accountingHandlers(deps: HandlerDeps): AccountingServiceHandlers {
  const ctx = handlerContext(deps);
  return {
    ...keyHandlers(ctx),
    ...budgetHandlers(ctx),
    ...teamHandlers(ctx),
    ...spendHandlers(ctx),
    ...auditHandlers(ctx),
    ...storedResponseHandlers(ctx),
  };
}
