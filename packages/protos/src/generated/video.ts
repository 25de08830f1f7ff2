import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { DeploymentHealth as _gateway_common_v1_DeploymentHealth, DeploymentHealth__Output as _gateway_common_v1_DeploymentHealth__Output } from './gateway/common/v1/DeploymentHealth.js';
import type { ModelGroup as _gateway_common_v1_ModelGroup, ModelGroup__Output as _gateway_common_v1_ModelGroup__Output } from './gateway/common/v1/ModelGroup.js';
import type { CreateVideoRequest as _gateway_video_v1_CreateVideoRequest, CreateVideoRequest__Output as _gateway_video_v1_CreateVideoRequest__Output } from './gateway/video/v1/CreateVideoRequest.js';
import type { CreateVideoResponse as _gateway_video_v1_CreateVideoResponse, CreateVideoResponse__Output as _gateway_video_v1_CreateVideoResponse__Output } from './gateway/video/v1/CreateVideoResponse.js';
import type { DeleteVideoRequest as _gateway_video_v1_DeleteVideoRequest, DeleteVideoRequest__Output as _gateway_video_v1_DeleteVideoRequest__Output } from './gateway/video/v1/DeleteVideoRequest.js';
import type { DeleteVideoResponse as _gateway_video_v1_DeleteVideoResponse, DeleteVideoResponse__Output as _gateway_video_v1_DeleteVideoResponse__Output } from './gateway/video/v1/DeleteVideoResponse.js';
import type { GetUpstreamHealthRequest as _gateway_video_v1_GetUpstreamHealthRequest, GetUpstreamHealthRequest__Output as _gateway_video_v1_GetUpstreamHealthRequest__Output } from './gateway/video/v1/GetUpstreamHealthRequest.js';
import type { GetUpstreamHealthResponse as _gateway_video_v1_GetUpstreamHealthResponse, GetUpstreamHealthResponse__Output as _gateway_video_v1_GetUpstreamHealthResponse__Output } from './gateway/video/v1/GetUpstreamHealthResponse.js';
import type { GetVideoRequest as _gateway_video_v1_GetVideoRequest, GetVideoRequest__Output as _gateway_video_v1_GetVideoRequest__Output } from './gateway/video/v1/GetVideoRequest.js';
import type { GetVideoResponse as _gateway_video_v1_GetVideoResponse, GetVideoResponse__Output as _gateway_video_v1_GetVideoResponse__Output } from './gateway/video/v1/GetVideoResponse.js';
import type { ListAllVideosRequest as _gateway_video_v1_ListAllVideosRequest, ListAllVideosRequest__Output as _gateway_video_v1_ListAllVideosRequest__Output } from './gateway/video/v1/ListAllVideosRequest.js';
import type { ListAllVideosResponse as _gateway_video_v1_ListAllVideosResponse, ListAllVideosResponse__Output as _gateway_video_v1_ListAllVideosResponse__Output } from './gateway/video/v1/ListAllVideosResponse.js';
import type { ListModelsRequest as _gateway_video_v1_ListModelsRequest, ListModelsRequest__Output as _gateway_video_v1_ListModelsRequest__Output } from './gateway/video/v1/ListModelsRequest.js';
import type { ListModelsResponse as _gateway_video_v1_ListModelsResponse, ListModelsResponse__Output as _gateway_video_v1_ListModelsResponse__Output } from './gateway/video/v1/ListModelsResponse.js';
import type { ListVideosRequest as _gateway_video_v1_ListVideosRequest, ListVideosRequest__Output as _gateway_video_v1_ListVideosRequest__Output } from './gateway/video/v1/ListVideosRequest.js';
import type { ListVideosResponse as _gateway_video_v1_ListVideosResponse, ListVideosResponse__Output as _gateway_video_v1_ListVideosResponse__Output } from './gateway/video/v1/ListVideosResponse.js';
import type { OwnedVideoJob as _gateway_video_v1_OwnedVideoJob, OwnedVideoJob__Output as _gateway_video_v1_OwnedVideoJob__Output } from './gateway/video/v1/OwnedVideoJob.js';
import type { ResolveVideoContentRequest as _gateway_video_v1_ResolveVideoContentRequest, ResolveVideoContentRequest__Output as _gateway_video_v1_ResolveVideoContentRequest__Output } from './gateway/video/v1/ResolveVideoContentRequest.js';
import type { ResolveVideoContentResponse as _gateway_video_v1_ResolveVideoContentResponse, ResolveVideoContentResponse__Output as _gateway_video_v1_ResolveVideoContentResponse__Output } from './gateway/video/v1/ResolveVideoContentResponse.js';
import type { VideoJob as _gateway_video_v1_VideoJob, VideoJob__Output as _gateway_video_v1_VideoJob__Output } from './gateway/video/v1/VideoJob.js';
import type { VideoServiceClient as _gateway_video_v1_VideoServiceClient, VideoServiceDefinition as _gateway_video_v1_VideoServiceDefinition } from './gateway/video/v1/VideoService.js';
import type { VideoStatusCount as _gateway_video_v1_VideoStatusCount, VideoStatusCount__Output as _gateway_video_v1_VideoStatusCount__Output } from './gateway/video/v1/VideoStatusCount.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    common: {
      v1: {
        DeploymentHealth: MessageTypeDefinition<_gateway_common_v1_DeploymentHealth, _gateway_common_v1_DeploymentHealth__Output>
        DeploymentState: EnumTypeDefinition
        ModelGroup: MessageTypeDefinition<_gateway_common_v1_ModelGroup, _gateway_common_v1_ModelGroup__Output>
        ModelGroupMode: EnumTypeDefinition
      }
    }
    video: {
      v1: {
        CreateVideoRequest: MessageTypeDefinition<_gateway_video_v1_CreateVideoRequest, _gateway_video_v1_CreateVideoRequest__Output>
        CreateVideoResponse: MessageTypeDefinition<_gateway_video_v1_CreateVideoResponse, _gateway_video_v1_CreateVideoResponse__Output>
        DeleteVideoRequest: MessageTypeDefinition<_gateway_video_v1_DeleteVideoRequest, _gateway_video_v1_DeleteVideoRequest__Output>
        DeleteVideoResponse: MessageTypeDefinition<_gateway_video_v1_DeleteVideoResponse, _gateway_video_v1_DeleteVideoResponse__Output>
        GetUpstreamHealthRequest: MessageTypeDefinition<_gateway_video_v1_GetUpstreamHealthRequest, _gateway_video_v1_GetUpstreamHealthRequest__Output>
        GetUpstreamHealthResponse: MessageTypeDefinition<_gateway_video_v1_GetUpstreamHealthResponse, _gateway_video_v1_GetUpstreamHealthResponse__Output>
        GetVideoRequest: MessageTypeDefinition<_gateway_video_v1_GetVideoRequest, _gateway_video_v1_GetVideoRequest__Output>
        GetVideoResponse: MessageTypeDefinition<_gateway_video_v1_GetVideoResponse, _gateway_video_v1_GetVideoResponse__Output>
        ListAllVideosRequest: MessageTypeDefinition<_gateway_video_v1_ListAllVideosRequest, _gateway_video_v1_ListAllVideosRequest__Output>
        ListAllVideosResponse: MessageTypeDefinition<_gateway_video_v1_ListAllVideosResponse, _gateway_video_v1_ListAllVideosResponse__Output>
        ListModelsRequest: MessageTypeDefinition<_gateway_video_v1_ListModelsRequest, _gateway_video_v1_ListModelsRequest__Output>
        ListModelsResponse: MessageTypeDefinition<_gateway_video_v1_ListModelsResponse, _gateway_video_v1_ListModelsResponse__Output>
        ListVideosRequest: MessageTypeDefinition<_gateway_video_v1_ListVideosRequest, _gateway_video_v1_ListVideosRequest__Output>
        ListVideosResponse: MessageTypeDefinition<_gateway_video_v1_ListVideosResponse, _gateway_video_v1_ListVideosResponse__Output>
        OwnedVideoJob: MessageTypeDefinition<_gateway_video_v1_OwnedVideoJob, _gateway_video_v1_OwnedVideoJob__Output>
        ResolveVideoContentRequest: MessageTypeDefinition<_gateway_video_v1_ResolveVideoContentRequest, _gateway_video_v1_ResolveVideoContentRequest__Output>
        ResolveVideoContentResponse: MessageTypeDefinition<_gateway_video_v1_ResolveVideoContentResponse, _gateway_video_v1_ResolveVideoContentResponse__Output>
        VideoJob: MessageTypeDefinition<_gateway_video_v1_VideoJob, _gateway_video_v1_VideoJob__Output>
        /**
         * Asynchronous video generation: jobs, provider adapters, task records and billing.
         */
        VideoService: SubtypeConstructor<typeof grpc.Client, _gateway_video_v1_VideoServiceClient> & { service: _gateway_video_v1_VideoServiceDefinition }
        VideoStatus: EnumTypeDefinition
        VideoStatusCount: MessageTypeDefinition<_gateway_video_v1_VideoStatusCount, _gateway_video_v1_VideoStatusCount__Output>
      }
    }
  }
}

