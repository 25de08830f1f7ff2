import type { SqlConnection, SqlStatement } from './sqlite-driver.js';

// Transactions on the embedded store's one connection. The binding is synchronous, so one
// store call runs to its end before any other JavaScript runs; writes still run inside
// BEGIN IMMEDIATE, which keeps a read-modify-write atomic even if another process opens the
// file. Work started inside an open transaction (a bus handling events in one) gets a
// savepoint, so it still lands whole or not at all within it.

/** A savepoint inside the open transaction; `end(ok)` releases it, or first rolls its writes back. */
interface Savepoint {
  end(ok: boolean): void;
}

export class SqliteTransactions {
  readonly #begin: SqlStatement;
  readonly #commit: SqlStatement;
  readonly #rollback: SqlStatement;
  #savepoints = 0;

  /** `statement` is the connection's cache of prepared statements (savepoint names repeat by depth). */
  constructor(
    private readonly db: SqlConnection,
    private readonly statement: (sql: string) => SqlStatement,
  ) {
    this.#begin = db.prepare('BEGIN IMMEDIATE');
    this.#commit = db.prepare('COMMIT');
    this.#rollback = db.prepare('ROLLBACK');
  }

  /** Whether a transaction is open on the connection. */
  get open(): boolean {
    return this.db.inTransaction;
  }

  begin(): void {
    this.#begin.run();
  }

  commit(): void {
    this.#commit.run();
  }

  rollback(): void {
    if (this.db.inTransaction) this.#rollback.run();
  }

  /**
   * Runs async `work` as one transaction (a savepoint inside one already open). Work must await
   * only this store's calls: anything else would let other JavaScript write inside it.
   */
  async atomically<R>(work: () => Promise<R>): Promise<R> {
    if (this.db.inTransaction) return this.savepoint(work);
    this.begin();
    try {
      const result = await work();
      this.commit();
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  async savepoint<R>(work: () => Promise<R>): Promise<R> {
    const savepoint = this.#savepoint();
    try {
      const result = await work();
      savepoint.end(true);
      return result;
    } catch (error) {
      savepoint.end(false);
      throw error;
    }
  }

  /** Runs `work` so that its writes land whole or not at all, inside the transaction already open too (a savepoint). */
  allOrNothing<R>(work: () => R): R {
    if (!this.db.inTransaction) return this.write(work);
    const savepoint = this.#savepoint();
    try {
      const result = work();
      savepoint.end(true);
      return result;
    } catch (error) {
      savepoint.end(false);
      throw error;
    }
  }

  /** Runs `work` in a write transaction, or inside the one already open. */
  write<R>(work: () => R): R {
    if (this.db.inTransaction) return work();
    this.begin();
    try {
      const result = work();
      this.commit();
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  #savepoint(): Savepoint {
    this.#savepoints += 1;
    const name = `nested_${this.#savepoints}`;
    this.statement(`SAVEPOINT ${name}`).run();
    let ended = false;
    return {
      end: (ok) => {
        if (ended) return;
        ended = true;
        this.#savepoints -= 1;
        if (!ok) {
          if (!this.db.inTransaction) return;
          this.statement(`ROLLBACK TO ${name}`).run();
        }
        this.statement(`RELEASE ${name}`).run();
      },
    };
  }
}
