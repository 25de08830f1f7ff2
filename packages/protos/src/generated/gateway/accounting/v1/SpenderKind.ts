// Original file: proto/gateway/accounting/v1/accounting.proto

export const SpenderKind = {
  SPENDER_KIND_UNSPECIFIED: 'SPENDER_KIND_UNSPECIFIED',
  SPENDER_KIND_KEY: 'SPENDER_KIND_KEY',
  SPENDER_KIND_TEAM: 'SPENDER_KIND_TEAM',
} as const;

export type SpenderKind =
  | 'SPENDER_KIND_UNSPECIFIED'
  | 0
  | 'SPENDER_KIND_KEY'
  | 1
  | 'SPENDER_KIND_TEAM'
  | 2

export type SpenderKind__Output = typeof SpenderKind[keyof typeof SpenderKind]
