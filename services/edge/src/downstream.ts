import { AccountingClient, ChatClient, VideoClient } from '@gateway/contracts';
import { checkHealth, createHealthClient, type HealthStatus } from '@gateway/grpc';
import type { HealthClient } from '@gateway/protos';

export interface DownstreamAddresses {
  accounting: string;
  chat: string;
  video: string;
}

export type DownstreamName = keyof DownstreamAddresses;

/** The edge's long-lived connections to the three services (one channel each, reused). */
export class Downstream {
  readonly accounting: AccountingClient;
  readonly chat: ChatClient;
  readonly video: VideoClient;
  readonly #health: Record<DownstreamName, HealthClient>;

  constructor(addresses: DownstreamAddresses) {
    this.accounting = new AccountingClient(addresses.accounting);
    this.chat = new ChatClient(addresses.chat);
    this.video = new VideoClient(addresses.video);
    this.#health = {
      accounting: createHealthClient(addresses.accounting),
      chat: createHealthClient(addresses.chat),
      video: createHealthClient(addresses.video),
    };
  }

  /** grpc.health.v1 status of each service, asked in parallel. */
  async health(): Promise<Record<DownstreamName, HealthStatus>> {
    const names = Object.keys(this.#health) as DownstreamName[];
    const statuses = await Promise.all(names.map((name) => checkHealth(this.#health[name])));
    return Object.fromEntries(names.map((name, i) => [name, statuses[i]])) as Record<DownstreamName, HealthStatus>;
  }

  close(): void {
    this.accounting.close();
    this.chat.close();
    this.video.close();
    for (const client of Object.values(this.#health)) client.close();
  }
}
