// The part of an Anthropic message the gateway knows before the upstream answers: its id, the
// caller's model, how its thinking blocks are signed, and the caller's stop sequences.

/** What a message says before its answer exists, and what its answer side needs from the request. */
export interface MessageShell {
  /** msg_… */
  id: string;
  /** As the caller sent it. */
  model: string;
  /** The signature a thinking block carries, so the gateway can trust it when the caller sends it back. */
  signThinking: (text: string) => string;
  /** The caller's stop_sequences: an upstream's matched stop counts only when it is one of them. */
  stopSequences: readonly string[];
}
