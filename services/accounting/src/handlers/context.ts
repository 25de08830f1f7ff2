import type { Bus } from '@gateway/bus';
import { encodeKeyChangedEvent, KEYS_CHANGED_SUBJECT, keyAllows, type KeyChangedEvent } from '@gateway/contracts';
import { GatewayError } from '@gateway/errors';
import type { GrpcServer } from '@gateway/grpc';
import type { Logger } from '@gateway/logging';
import type { AuditContext__Output } from '@gateway/protos';
import type { DocumentStore } from '@gateway/store';
import type { AuditLog, AuditSource } from '../domain/audit.js';
import type { KeyRecord, KeyRepository } from '../domain/keys.js';
import type { Ledger } from '../domain/ledger.js';
import type { Reservations } from '../domain/reservations.js';
import type { StoredResponses } from '../domain/stored-responses.js';
import type { TeamRecord, TeamRepository } from '../domain/teams.js';
import { effectiveModels } from '../domain/validation.js';
import { SPEND_CONSUMER } from '../spend-consumer.js';

// What every RPC family's handlers share: the service's dependencies and the few steps more
// than one family takes (announcing key changes, checking a key's team, waiting for spend).

export interface HandlerDeps {
  server: GrpcServer;
  store: DocumentStore;
  keys: KeyRepository;
  teams: TeamRepository;
  reservations: Reservations;
  ledger: Ledger;
  audit: AuditLog;
  storedResponses: StoredResponses;
  bus: Bus;
  logger: Logger;
  clock: () => number;
}

export interface HandlerContext extends HandlerDeps {
  /** Tells the edges a key (or a team's keys) changed; a failure is logged, never thrown. */
  announce(event: KeyChangedEvent): Promise<void>;
  /** The key's team when it has one that is not deleted. */
  liveTeam(key: KeyRecord): Promise<TeamRecord | null>;
  /** A team a key may be put in: 422 naming team_id when there is none by that id. */
  checkTeam(teamId: string | null | undefined): Promise<void>;
  /** The key ready for a call on `group`: usable, allowed by itself and its team. */
  callable(keyId: string, group: string): Promise<{ key: KeyRecord; team: TeamRecord | null }>;
  /**
   * In one process spend events are applied in batches a few milliseconds after their calls
   * (docs/architecture.md, "Budget authority"): readers of spend wait until this process's
   * consumer has applied what was published before them, so a caller sees its call's spend
   * right after the response. Over NATS it resolves at once.
   */
  spendApplied(): Promise<void>;
  /**
   * A budget refused while spend waits to be applied may be refused for worst cases that calls
   * no longer hold: the refusal stands only once that spend is applied (then `retry` runs once).
   */
  refusedAfterSpendApplied<R>(error: unknown, retry: () => Promise<R>): Promise<R>;
}

/** Rejects a field mask naming a field outside `allowed` (422 naming the field). */
export function checkMask(mask: readonly string[], allowed: ReadonlySet<string>): Set<string> {
  for (const field of mask) {
    if (!allowed.has(field)) throw new GatewayError('invalid_request', { param: field, message: `'${field}' cannot be changed` });
  }
  return new Set(mask);
}

/** Where an admin change came from, for its audit entry. */
export function auditSource(audit: AuditContext__Output | null): AuditSource | null {
  return audit ? { route: audit.route, request_id: audit.request_id } : null;
}

export function handlerContext(deps: HandlerDeps): HandlerContext {
  const { keys, teams, reservations, bus, logger } = deps;
  const announce = (event: KeyChangedEvent) =>
    bus.broadcast(KEYS_CHANGED_SUBJECT, encodeKeyChangedEvent(event)).catch((error: unknown) => {
      logger.warn(
        { err: error, keyId: event.key_id, teamId: event.team_id },
        'could not announce a key change; edges fall back to their cache expiry',
      );
    });
  const liveTeam = async (key: KeyRecord): Promise<TeamRecord | null> => {
    const team = await reservations.book.teamOf(key);
    return team && team.deleted_at === null ? team : null;
  };
  const checkTeam = async (teamId: string | null | undefined): Promise<void> => {
    if (!teamId) return;
    await teams.get(teamId).catch((error: unknown) => {
      if (error instanceof GatewayError && error.code === 'team_not_found') {
        throw new GatewayError('invalid_request', { param: 'team_id', message: `no team with id "${teamId}"` });
      }
      throw error;
    });
  };
  const callable = async (keyId: string, group: string): Promise<{ key: KeyRecord; team: TeamRecord | null }> => {
    const key = await keys.get(keyId);
    keys.usable(key);
    const team = await liveTeam(key);
    if (!keyAllows({ models: effectiveModels(key.models, team?.models) }, group)) throw new GatewayError('model_not_allowed');
    return { key, team };
  };
  const spendApplied = () => bus.caughtUp(SPEND_CONSUMER);
  const refusedAfterSpendApplied = async <R>(error: unknown, retry: () => Promise<R>): Promise<R> => {
    if (!(error instanceof GatewayError) || error.code !== 'budget_exceeded') throw error;
    await spendApplied();
    return retry();
  };
  return { ...deps, announce, liveTeam, checkTeam, callable, spendApplied, refusedAfterSpendApplied };
}
