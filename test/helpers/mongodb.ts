import { existsSync } from 'node:fs';

// A real MongoDB for the tests that need one: the server MONGODB_URI names, else a container
// started with testcontainers when a Docker engine is reachable, else none (those tests are
// reported as skipped, saying why). Each caller gets a database of its own.

export interface RealMongo {
  /** A connection string whose path names a fresh database. */
  uri: string;
  source: 'MONGODB_URI' | 'testcontainers';
  stop(): Promise<void>;
}

/** Why there is no MongoDB here, for skipped tests' names. */
export const NO_MONGODB = 'set MONGODB_URI or run a Docker engine to run';

function dockerReachable(): boolean {
  return (
    Boolean(process.env.DOCKER_HOST) ||
    existsSync('/var/run/docker.sock') ||
    existsSync(`${process.env.HOME ?? ''}/.docker/run/docker.sock`)
  );
}

/** Puts `database` in the URI's path, keeping its options. */
export function withDatabase(uri: string, database: string): string {
  const url = new URL(uri);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function realMongo(database: string): Promise<RealMongo | undefined> {
  const given = process.env.MONGODB_URI;
  if (given) return { uri: withDatabase(given, database), source: 'MONGODB_URI', stop: async () => {} };
  if (!dockerReachable()) return undefined;
  const { MongoDBContainer } = await import('@testcontainers/mongodb');
  const container = await new MongoDBContainer('mongo:7').start();
  // The module starts a one-member replica set; connect to the member directly.
  const uri = withDatabase(`${container.getConnectionString()}?directConnection=true`, database);
  return {
    uri,
    source: 'testcontainers',
    stop: async () => {
      await container.stop();
    },
  };
}
