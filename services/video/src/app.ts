import { ConfigError, servedGroups, unknownProviders, type VideoGroupConfig } from '@gateway/config';
import { GrpcServer } from '@gateway/grpc';
import { protos, type ModelGroup, type VideoJob, type VideoServiceHandlers } from '@gateway/protos';
import { unlimitedBudget, videoJobStatus, videoStatusMessage, type BudgetAuthority, type VideoJobStatus } from '@gateway/contracts';
import { deploymentHealthMessage, modelGroupMessage, type ServiceDeps } from '@gateway/runtime';
import type { DocumentStore } from '@gateway/store';
import { observeBus } from '@gateway/telemetry';
import { Router } from '@gateway/upstream';
import { VideoJobs } from './domain/jobs.js';
import { TaskRepository, type TaskRecord } from './domain/tasks.js';
import { type VideoProvider, videoProviders } from './providers/index.js';
import { ProviderHttp } from './upstream.js';

export interface VideoDeps extends ServiceDeps {
  /** Holds the task records. */
  store: DocumentStore;
  /** Off in tests that drive polling themselves. */
  poller?: boolean;
  /** Holds each job's price before the provider task is created; without one every job fits. */
  budget?: BudgetAuthority;
}

export interface VideoApp {
  server: GrpcServer;
  jobs: VideoJobs;
  stop(): Promise<void>;
}

/** A job as it crosses to the edge: never the provider's task id or address. */
/**
 * A video group as /v1/models lists it, with the integer token limits the specification types:
 * the configured ones, else the providers' — input: the strictest prompt limit in characters
 * (a token is at least one character); output: the most video tokens one job can make,
 * width × height × (seconds × 24 + 1) / 1024 at the group's largest size and longest clip.
 */
export function videoModelGroup(group: VideoGroupConfig, providers: ReadonlyMap<string, VideoProvider>): ModelGroup {
  const message = modelGroupMessage(group);
  const used = group.deployments.map((d) => providers.get(d.provider)).filter((p): p is VideoProvider => p !== undefined);
  if (!message.max_input_tokens && used.length > 0) message.max_input_tokens = Math.min(...used.map((p) => p.maxPromptChars));
  if (!message.max_output_tokens) {
    let most = 0;
    for (const provider of used)
      for (const resolution of group.video.resolutions)
        for (const ratio of group.video.ratios) {
          const pixels = provider.pixels(resolution, ratio);
          if (pixels) most = Math.max(most, Math.ceil((pixels[0] * pixels[1] * (group.video.maxSeconds * 24 + 1)) / 1024));
        }
    message.max_output_tokens = most;
  }
  return message;
}

/** A task record as the job callers see; `retentionSeconds` tells when the record goes. */
export function jobMessage(task: TaskRecord, retentionSeconds: number): VideoJob {
  return {
    id: task._id,
    model: task.model,
    // Records read back normalized (TaskRepository), so only the gateway's statuses reach here.
    status: videoStatusMessage(task.status),
    progress: task.progress,
    created_at_ms: task.created_at.getTime(),
    completed_at_ms: task.completed_at ? task.completed_at.getTime() : 0,
    seconds: task.seconds,
    size: task.size ?? '',
    error_message: task.error_message ?? '',
    error_code: task.status === 'failed' ? (task.error_code ?? 'generation_failed') : '',
    total_tokens: task.total_tokens ?? 0,
    expires_at_ms: task.created_at.getTime() + retentionSeconds * 1000,
  };
}

/** Wires the video service: validation, providers, task records, the poller and billing behind gRPC. */
export async function buildVideoApp(deps: VideoDeps): Promise<VideoApp> {
  const { config, bus, store, logger, env } = deps;
  const videoGroups = config.groups.filter((g): g is VideoGroupConfig => g.mode === 'video');
  // A provider name no folder here implements is a configuration error, said like one.
  const unknown = unknownProviders(config, 'video', videoProviders);
  if (unknown.length > 0) throw new ConfigError(config.source, unknown);
  const tasks = await TaskRepository.open(store, config.video.retentionSeconds);
  const http = new ProviderHttp(env, config.video.timeoutMs);
  const groupsById = new Map(videoGroups.map((g) => [g.id, g]));
  const router = new Router(config.router, groupsById, env);
  const jobs = new VideoJobs({
    groups: groupsById,
    providers: videoProviders,
    http,
    tasks,
    bus,
    logger,
    config: config.video,
    env,
    budget: deps.budget ?? unlimitedBudget,
    router,
  });

  const server = new GrpcServer({
    logger,
    service: 'video',
    shutdownGraceMs: config.server.shutdownGraceMs,
    // Not the bus: spend events wait in the outbox while it is away (see accounting).
    checks: { store: () => store.ping() },
  });
  const served = servedGroups(config, 'video', env).map((group) => videoModelGroup(group as VideoGroupConfig, videoProviders));
  const handlers: VideoServiceHandlers = {
    ListModels: server.unary('ListModels', async () => ({ groups: served })),
    CreateVideo: server.unary('CreateVideo', async (request, call) => {
      const task = await jobs.create(
        request.key_id,
        request.model,
        request.group,
        {
          prompt: request.prompt,
          seconds: request.seconds,
          resolution: request.resolution,
          ratio: request.ratio,
          inputReference: request.input_reference,
          size: request.size,
        },
        // The hold on accounting and the provider's create end with the call (deadline, caller gone).
        { requestId: call.requestId, scope: call.scope, deadline: call.deadline, signal: call.signal },
      );
      return { job: jobMessage(task, config.video.retentionSeconds) };
    }),
    GetVideo: server.unary('GetVideo', async (request, call) => ({
      job: jobMessage(await jobs.get(request.key_id, request.video_id, call.deadline), config.video.retentionSeconds),
    })),
    ListVideos: server.unary('ListVideos', async (request) => {
      const page = await jobs.list(request.key_id, request.page_size, request.after, request.ascending);
      return { jobs: page.jobs.map((task) => jobMessage(task, config.video.retentionSeconds)), has_more: page.hasMore };
    }),
    ListAllVideos: server.unary('ListAllVideos', async (request) => {
      const status = request.status === 'VIDEO_STATUS_UNSPECIFIED' ? undefined : videoJobStatus(request.status);
      const page = await jobs.listAll({
        ...(status ? { status } : {}),
        ...(request.key_id ? { keyId: request.key_id } : {}),
        pageSize: request.page_size,
        afterId: request.after,
      });
      return {
        jobs: page.jobs.map((task) => ({ job: jobMessage(task, config.video.retentionSeconds), key_id: task.key_id })),
        has_more: page.hasMore,
        counts: Object.entries(page.counts).map(([status, count]) => ({ status: videoStatusMessage(status as VideoJobStatus), count })),
      };
    }),
    GetUpstreamHealth: server.unary('GetUpstreamHealth', async () => ({ deployments: router.health().map(deploymentHealthMessage) })),
    DeleteVideo: server.unary('DeleteVideo', async (request) => {
      await jobs.delete(request.key_id, request.video_id);
      return {};
    }),
    ResolveVideoContent: server.unary('ResolveVideoContent', async (request, call) => ({
      url: (await jobs.resolveContent(request.key_id, request.video_id, request.refresh, call.signal)).url,
      content_length: 0,
    })),
  };
  server.addService('gateway.video.v1.VideoService', protos().gateway.video.v1.VideoService.service, handlers);
  if (deps.poller !== false) jobs.start();
  const unobserveBus = observeBus(bus);
  return {
    server,
    jobs,
    stop: async () => {
      unobserveBus();
      await jobs.stop();
      await http.close();
    },
  };
}
