import { randomUUID } from 'node:crypto';
import {
  PERMISSION_POLICIES,
  permissionPolicyToWire,
  PROVIDERS,
  providerToWire,
  QUESTION_CAPABILITIES,
  questionCapabilityToWire,
  SURFACES,
  surfaceToWire,
} from '@kandev/protocol';
import fc from 'fast-check';

/** A session id: one agentctl holds, a fresh UUID, or something that is no UUID at all. */
function sessionId(liveIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...liveIds),
    fc.uuid(),
    fc.constantFrom('', '../../x', 'x'.repeat(10_000), '%ZZ', ' '),
    fc.string({ maxLength: 40 }),
  );
}

/**
 * Enum values: every name the protocol maps (so a new value is fuzzed the day it is added), UNSPECIFIED,
 * and numbers no version defines (proto3 keeps them).
 */
const enumValue = (unspecified: string, names: readonly string[]) =>
  fc.oneof(fc.constantFrom(unspecified, ...names), fc.integer({ min: 0, max: 50 }));
const providers = fc.array(enumValue('PROVIDER_UNSPECIFIED', PROVIDERS.map(providerToWire)), { maxLength: 4 });
const revision = fc.oneof(
  fc.constantFrom('0', '1', '2', '18446744073709551615'),
  fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
);
const text = fc.oneof(fc.string({ maxLength: 60 }), fc.constantFrom('', '   ', '\u00a0', 'x'.repeat(200_000)));

/** Only commands that cannot do harm: a Node that exits at once, or one that does not exist. */
const agentCommand = fc.option(
  fc.record({
    command: fc.constantFrom(process.execPath, '/nonexistent/agent', ''),
    args: fc.constantFrom([], ['-e', 'process.exit(0)'], ['-e', 'process.exit(3)']),
    env: fc.dictionary(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), { maxKeys: 3 }),
    cwd: fc.constantFrom('', '/nonexistent', '/tmp'),
    supports_mcp: fc.boolean(),
    resume_acp_session_id: fc.string({ maxLength: 10 }),
    permission_policy: enumValue('PERMISSION_POLICY_UNSPECIFIED', PERMISSION_POLICIES.map(permissionPolicyToWire)),
  }),
  { nil: undefined },
);

function launchConfig(liveIds: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({
    // Mostly fresh ids, so accepted creates do not all collide with the live sessions.
    session_id: fc.oneof(
      fc.constant(null).map(() => randomUUID()),
      sessionId(liveIds),
    ),
    task_id: fc.string({ maxLength: 40 }),
    workspace_id: fc.string({ maxLength: 40 }),
    surface: enumValue('SURFACE_UNSPECIFIED', SURFACES.map(surfaceToWire)),
    question_capability: enumValue(
      'QUESTION_CAPABILITY_UNSPECIFIED',
      QUESTION_CAPABILITIES.map(questionCapabilityToWire),
    ),
    providers,
    revision,
    owns_task_title: fc.boolean(),
    mcp_token: fc.oneof(fc.string({ maxLength: 50 }), fc.constant('t'.repeat(43))),
    system_prompt: text,
    agent: agentCommand,
  });
}

/** One request arbitrary per unary AgentCtl method; the suite checks this covers the whole service. */
export function unaryRequests(liveIds: readonly string[]): Record<string, fc.Arbitrary<Record<string, unknown>>> {
  const id = sessionId(liveIds);
  return {
    CreateSession: launchConfig(liveIds),
    RestoreSession: fc.record({
      config: launchConfig(liveIds),
      mcp_token_sha256: fc.oneof(fc.string({ maxLength: 70 }), fc.stringMatching(/^[0-9a-f]{64}$/)),
    }),
    GetSession: fc.record({ session_id: id }),
    ListSessions: fc.constant({}),
    StopSession: fc.record({ session_id: id }),
    Prompt: fc.record({ session_id: id, prompt_id: fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })), text }),
    CancelTurn: fc.record({ session_id: id }),
  };
}

/** One provider update: a live, unknown or malformed session, any providers, any uint64 revision. */
export function providerUpdate(liveIds: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record({ session_id: sessionId(liveIds), providers, revision });
}

/** Calls a backend might send on StreamProviderUpdates: any uint64 call id, a batch or none. */
export function providerUpdateCalls(liveIds: readonly string[]): fc.Arbitrary<Record<string, unknown>[]> {
  const batch = fc.record({ updates: fc.array(providerUpdate(liveIds), { maxLength: 4 }) });
  const call = fc.record({
    call_id: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map(String),
    batch: fc.option(batch, { nil: null }),
  });
  return fc.array(call, { maxLength: 5 });
}

/** Messages a backend might send on Attach, in any order: hellos, results and progress for any call id. */
export function attachMessages(): fc.Arbitrary<Record<string, unknown>[]> {
  const callId = fc.oneof(fc.uuid(), fc.string({ maxLength: 20 }));
  const message = fc.oneof(
    fc.record({ hello: fc.record({ backend_id: fc.string({ maxLength: 40 }) }) }),
    fc.record({
      tool_result: fc.record({
        call_id: callId,
        output: fc.record({
          text,
          structured_json: fc.oneof(fc.string({ maxLength: 30 }), fc.json()),
          is_error: fc.boolean(),
        }),
      }),
    }),
    fc.record({
      tool_result: fc.record({
        call_id: callId,
        error: fc.record({ code: fc.string({ maxLength: 20 }), message: text }),
      }),
    }),
    fc.record({ tool_progress: fc.record({ call_id: callId, message: text }) }),
    fc.constant({}),
  );
  return fc.array(message, { maxLength: 6 });
}
