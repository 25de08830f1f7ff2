// Original file: proto/gateway/video/v1/video.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { CreateVideoRequest as _gateway_video_v1_CreateVideoRequest, CreateVideoRequest__Output as _gateway_video_v1_CreateVideoRequest__Output } from '../../../gateway/video/v1/CreateVideoRequest.js';
import type { CreateVideoResponse as _gateway_video_v1_CreateVideoResponse, CreateVideoResponse__Output as _gateway_video_v1_CreateVideoResponse__Output } from '../../../gateway/video/v1/CreateVideoResponse.js';
import type { DeleteVideoRequest as _gateway_video_v1_DeleteVideoRequest, DeleteVideoRequest__Output as _gateway_video_v1_DeleteVideoRequest__Output } from '../../../gateway/video/v1/DeleteVideoRequest.js';
import type { DeleteVideoResponse as _gateway_video_v1_DeleteVideoResponse, DeleteVideoResponse__Output as _gateway_video_v1_DeleteVideoResponse__Output } from '../../../gateway/video/v1/DeleteVideoResponse.js';
import type { GetUpstreamHealthRequest as _gateway_video_v1_GetUpstreamHealthRequest, GetUpstreamHealthRequest__Output as _gateway_video_v1_GetUpstreamHealthRequest__Output } from '../../../gateway/video/v1/GetUpstreamHealthRequest.js';
import type { GetUpstreamHealthResponse as _gateway_video_v1_GetUpstreamHealthResponse, GetUpstreamHealthResponse__Output as _gateway_video_v1_GetUpstreamHealthResponse__Output } from '../../../gateway/video/v1/GetUpstreamHealthResponse.js';
import type { GetVideoRequest as _gateway_video_v1_GetVideoRequest, GetVideoRequest__Output as _gateway_video_v1_GetVideoRequest__Output } from '../../../gateway/video/v1/GetVideoRequest.js';
import type { GetVideoResponse as _gateway_video_v1_GetVideoResponse, GetVideoResponse__Output as _gateway_video_v1_GetVideoResponse__Output } from '../../../gateway/video/v1/GetVideoResponse.js';
import type { ListAllVideosRequest as _gateway_video_v1_ListAllVideosRequest, ListAllVideosRequest__Output as _gateway_video_v1_ListAllVideosRequest__Output } from '../../../gateway/video/v1/ListAllVideosRequest.js';
import type { ListAllVideosResponse as _gateway_video_v1_ListAllVideosResponse, ListAllVideosResponse__Output as _gateway_video_v1_ListAllVideosResponse__Output } from '../../../gateway/video/v1/ListAllVideosResponse.js';
import type { ListModelsRequest as _gateway_video_v1_ListModelsRequest, ListModelsRequest__Output as _gateway_video_v1_ListModelsRequest__Output } from '../../../gateway/video/v1/ListModelsRequest.js';
import type { ListModelsResponse as _gateway_video_v1_ListModelsResponse, ListModelsResponse__Output as _gateway_video_v1_ListModelsResponse__Output } from '../../../gateway/video/v1/ListModelsResponse.js';
import type { ListVideosRequest as _gateway_video_v1_ListVideosRequest, ListVideosRequest__Output as _gateway_video_v1_ListVideosRequest__Output } from '../../../gateway/video/v1/ListVideosRequest.js';
import type { ListVideosResponse as _gateway_video_v1_ListVideosResponse, ListVideosResponse__Output as _gateway_video_v1_ListVideosResponse__Output } from '../../../gateway/video/v1/ListVideosResponse.js';
import type { ResolveVideoContentRequest as _gateway_video_v1_ResolveVideoContentRequest, ResolveVideoContentRequest__Output as _gateway_video_v1_ResolveVideoContentRequest__Output } from '../../../gateway/video/v1/ResolveVideoContentRequest.js';
import type { ResolveVideoContentResponse as _gateway_video_v1_ResolveVideoContentResponse, ResolveVideoContentResponse__Output as _gateway_video_v1_ResolveVideoContentResponse__Output } from '../../../gateway/video/v1/ResolveVideoContentResponse.js';

/**
 * Asynchronous video generation: jobs, provider adapters, task records and billing.
 */
export interface VideoServiceClient extends grpc.Client {
  CreateVideo(argument: _gateway_video_v1_CreateVideoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  CreateVideo(argument: _gateway_video_v1_CreateVideoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  CreateVideo(argument: _gateway_video_v1_CreateVideoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  CreateVideo(argument: _gateway_video_v1_CreateVideoRequest, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  createVideo(argument: _gateway_video_v1_CreateVideoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  createVideo(argument: _gateway_video_v1_CreateVideoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  createVideo(argument: _gateway_video_v1_CreateVideoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  createVideo(argument: _gateway_video_v1_CreateVideoRequest, callback: grpc.requestCallback<_gateway_video_v1_CreateVideoResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Removes the caller's job. An unfinished one is cancelled upstream first where its provider
   * can (and is not billed); UNIMPLEMENTED (not_implemented) where it cannot.
   */
  DeleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  DeleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  DeleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  DeleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Removes the caller's job. An unfinished one is cancelled upstream first where its provider
   * can (and is not billed); UNIMPLEMENTED (not_implemented) where it cannot.
   */
  deleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  deleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  deleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  deleteVideo(argument: _gateway_video_v1_DeleteVideoRequest, callback: grpc.requestCallback<_gateway_video_v1_DeleteVideoResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * What this replica's router knows of each served deployment (the admin API's upstream health).
   */
  GetUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  GetUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  GetUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  GetUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  /**
   * What this replica's router knows of each served deployment (the admin API's upstream health).
   */
  getUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  getUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  getUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  getUpstreamHealth(argument: _gateway_video_v1_GetUpstreamHealthRequest, callback: grpc.requestCallback<_gateway_video_v1_GetUpstreamHealthResponse__Output>): grpc.ClientUnaryCall;
  
  GetVideo(argument: _gateway_video_v1_GetVideoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  GetVideo(argument: _gateway_video_v1_GetVideoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  GetVideo(argument: _gateway_video_v1_GetVideoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  GetVideo(argument: _gateway_video_v1_GetVideoRequest, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  getVideo(argument: _gateway_video_v1_GetVideoRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  getVideo(argument: _gateway_video_v1_GetVideoRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  getVideo(argument: _gateway_video_v1_GetVideoRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  getVideo(argument: _gateway_video_v1_GetVideoRequest, callback: grpc.requestCallback<_gateway_video_v1_GetVideoResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Every key's jobs, newest first, with counts by status (the admin API; not for callers).
   */
  ListAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  ListAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  ListAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  ListAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Every key's jobs, newest first, with counts by status (the admin API; not for callers).
   */
  listAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  listAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  listAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  listAllVideos(argument: _gateway_video_v1_ListAllVideosRequest, callback: grpc.requestCallback<_gateway_video_v1_ListAllVideosResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The video groups this deployment serves (a credential is configured).
   */
  ListModels(argument: _gateway_video_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _gateway_video_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _gateway_video_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  ListModels(argument: _gateway_video_v1_ListModelsRequest, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The video groups this deployment serves (a credential is configured).
   */
  listModels(argument: _gateway_video_v1_ListModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _gateway_video_v1_ListModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _gateway_video_v1_ListModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  listModels(argument: _gateway_video_v1_ListModelsRequest, callback: grpc.requestCallback<_gateway_video_v1_ListModelsResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * The caller's jobs, newest first (or oldest first), a page at a time.
   */
  ListVideos(argument: _gateway_video_v1_ListVideosRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  ListVideos(argument: _gateway_video_v1_ListVideosRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  ListVideos(argument: _gateway_video_v1_ListVideosRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  ListVideos(argument: _gateway_video_v1_ListVideosRequest, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  /**
   * The caller's jobs, newest first (or oldest first), a page at a time.
   */
  listVideos(argument: _gateway_video_v1_ListVideosRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  listVideos(argument: _gateway_video_v1_ListVideosRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  listVideos(argument: _gateway_video_v1_ListVideosRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  listVideos(argument: _gateway_video_v1_ListVideosRequest, callback: grpc.requestCallback<_gateway_video_v1_ListVideosResponse__Output>): grpc.ClientUnaryCall;
  
  /**
   * Resolves where the finished clip can be fetched; the address stays inside the gateway.
   */
  ResolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  ResolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  ResolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  ResolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  /**
   * Resolves where the finished clip can be fetched; the address stays inside the gateway.
   */
  resolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  resolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  resolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  resolveVideoContent(argument: _gateway_video_v1_ResolveVideoContentRequest, callback: grpc.requestCallback<_gateway_video_v1_ResolveVideoContentResponse__Output>): grpc.ClientUnaryCall;
  
}

/**
 * Asynchronous video generation: jobs, provider adapters, task records and billing.
 */
export interface VideoServiceHandlers extends grpc.UntypedServiceImplementation {
  CreateVideo: grpc.handleUnaryCall<_gateway_video_v1_CreateVideoRequest__Output, _gateway_video_v1_CreateVideoResponse>;
  
  /**
   * Removes the caller's job. An unfinished one is cancelled upstream first where its provider
   * can (and is not billed); UNIMPLEMENTED (not_implemented) where it cannot.
   */
  DeleteVideo: grpc.handleUnaryCall<_gateway_video_v1_DeleteVideoRequest__Output, _gateway_video_v1_DeleteVideoResponse>;
  
  /**
   * What this replica's router knows of each served deployment (the admin API's upstream health).
   */
  GetUpstreamHealth: grpc.handleUnaryCall<_gateway_video_v1_GetUpstreamHealthRequest__Output, _gateway_video_v1_GetUpstreamHealthResponse>;
  
  GetVideo: grpc.handleUnaryCall<_gateway_video_v1_GetVideoRequest__Output, _gateway_video_v1_GetVideoResponse>;
  
  /**
   * Every key's jobs, newest first, with counts by status (the admin API; not for callers).
   */
  ListAllVideos: grpc.handleUnaryCall<_gateway_video_v1_ListAllVideosRequest__Output, _gateway_video_v1_ListAllVideosResponse>;
  
  /**
   * The video groups this deployment serves (a credential is configured).
   */
  ListModels: grpc.handleUnaryCall<_gateway_video_v1_ListModelsRequest__Output, _gateway_video_v1_ListModelsResponse>;
  
  /**
   * The caller's jobs, newest first (or oldest first), a page at a time.
   */
  ListVideos: grpc.handleUnaryCall<_gateway_video_v1_ListVideosRequest__Output, _gateway_video_v1_ListVideosResponse>;
  
  /**
   * Resolves where the finished clip can be fetched; the address stays inside the gateway.
   */
  ResolveVideoContent: grpc.handleUnaryCall<_gateway_video_v1_ResolveVideoContentRequest__Output, _gateway_video_v1_ResolveVideoContentResponse>;
  
}

export interface VideoServiceDefinition extends grpc.ServiceDefinition {
  CreateVideo: MethodDefinition<_gateway_video_v1_CreateVideoRequest, _gateway_video_v1_CreateVideoResponse, _gateway_video_v1_CreateVideoRequest__Output, _gateway_video_v1_CreateVideoResponse__Output>
  DeleteVideo: MethodDefinition<_gateway_video_v1_DeleteVideoRequest, _gateway_video_v1_DeleteVideoResponse, _gateway_video_v1_DeleteVideoRequest__Output, _gateway_video_v1_DeleteVideoResponse__Output>
  GetUpstreamHealth: MethodDefinition<_gateway_video_v1_GetUpstreamHealthRequest, _gateway_video_v1_GetUpstreamHealthResponse, _gateway_video_v1_GetUpstreamHealthRequest__Output, _gateway_video_v1_GetUpstreamHealthResponse__Output>
  GetVideo: MethodDefinition<_gateway_video_v1_GetVideoRequest, _gateway_video_v1_GetVideoResponse, _gateway_video_v1_GetVideoRequest__Output, _gateway_video_v1_GetVideoResponse__Output>
  ListAllVideos: MethodDefinition<_gateway_video_v1_ListAllVideosRequest, _gateway_video_v1_ListAllVideosResponse, _gateway_video_v1_ListAllVideosRequest__Output, _gateway_video_v1_ListAllVideosResponse__Output>
  ListModels: MethodDefinition<_gateway_video_v1_ListModelsRequest, _gateway_video_v1_ListModelsResponse, _gateway_video_v1_ListModelsRequest__Output, _gateway_video_v1_ListModelsResponse__Output>
  ListVideos: MethodDefinition<_gateway_video_v1_ListVideosRequest, _gateway_video_v1_ListVideosResponse, _gateway_video_v1_ListVideosRequest__Output, _gateway_video_v1_ListVideosResponse__Output>
  ResolveVideoContent: MethodDefinition<_gateway_video_v1_ResolveVideoContentRequest, _gateway_video_v1_ResolveVideoContentResponse, _gateway_video_v1_ResolveVideoContentRequest__Output, _gateway_video_v1_ResolveVideoContentResponse__Output>
}
