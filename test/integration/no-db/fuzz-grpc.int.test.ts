// Fuzz of agentctl's gRPC surface against the real daemon: every AgentCtl method with arbitrary
// well-formed requests and with bytes that decode to nothing, and the streams (Attach,
// StreamProviderUpdates) with arbitrary message sequences. Properties: never INTERNAL or UNKNOWN, the
// daemon stays up, and a refused call (or refused provider update) leaves the sessions agentctl holds
// as they were.
import * as grpc from '@grpc/grpc-js';
import {
  type AgentCtlClient,
  agentctlServiceDefinition,
  controlTokenMetadata,
  launchConfigToWire,
} from '@kandev/protocol';
import fc from 'fast-check';
import { agentctlClient, exchangeProviderUpdates, unary } from '../../helpers/agentctl-grpc';
import { Cleanup } from '../../helpers/cleanup';
import {
  attachMessages,
  providerUpdate,
  providerUpdateCalls,
  unaryRequests,
} from '../../helpers/fuzz/grpc-arbitraries';
import { sessionUuid } from '../../helpers/session-ids';
import { isRunning, startAgentctl, TEST_CONTROL_TOKEN } from '../../helpers/processes';

const SEED = 20261201;
const RUNS_PER_METHOD = 60;
const BUG_CODES = [grpc.status.INTERNAL, grpc.status.UNKNOWN];

const SERVICE = agentctlServiceDefinition();
const suite = new Cleanup();
let client: AgentCtlClient;
let raw: grpc.Client;
let liveIds: string[];
let isUp: () => boolean;

beforeAll(async () => {
  const daemon = await startAgentctl(suite);
  client = agentctlClient(suite, daemon.ready.grpcPort);
  raw = new grpc.Client(`127.0.0.1:${daemon.ready.grpcPort}`, grpc.credentials.createInsecure());
  suite.defer(() => raw.close());
  isUp = () => isRunning(daemon.child);
  liveIds = [sessionUuid('fuzz-a'), sessionUuid('fuzz-b')];
  for (const [index, sessionId] of liveIds.entries()) {
    const config = launchConfigToWire({
      sessionId,
      taskId: `task-${index}`,
      workspaceId: 'ws',
      surface: 'kanban_task',
      questionCapability: 'user',
      providers: ['github'],
      revision: 1,
      ownsTaskTitle: false,
      mcpToken: `fuzz-mcp-token-${index}-0123456789abcdef0123456789`,
      systemPrompt: 'prompt',
      agent: null,
    });
    await unary(client, client.CreateSession, config, TEST_CONTROL_TOKEN);
  }
});

afterAll(() => suite.run());

type Outcome = { code: grpc.status; details: string };

function call(method: string, request: unknown): Promise<Outcome> {
  type Stub = (
    request: unknown,
    metadata: grpc.Metadata,
    options: grpc.CallOptions,
    callback: (error: grpc.ServiceError | null) => void,
  ) => void;
  const stub = (client as unknown as Record<string, Stub>)[method]!;
  return new Promise((resolve) => {
    stub.call(
      client,
      request,
      controlTokenMetadata(TEST_CONTROL_TOKEN),
      { deadline: Date.now() + 10_000 },
      (error: grpc.ServiceError | null) =>
        resolve(error === null ? { code: grpc.status.OK, details: '' } : { code: error.code, details: error.details }),
    );
  });
}

/** Sends bytes as they are: what a broken or hostile client puts on the wire. */
function callRaw(path: string, bytes: Uint8Array): Promise<Outcome> {
  const identity = (value: Buffer) => value;
  return new Promise((resolve) => {
    raw.makeUnaryRequest(
      path,
      identity,
      identity,
      Buffer.from(bytes),
      controlTokenMetadata(TEST_CONTROL_TOKEN),
      { deadline: Date.now() + 10_000 },
      (error) =>
        resolve(error === null ? { code: grpc.status.OK, details: '' } : { code: error.code, details: error.details }),
    );
  });
}

/** What agentctl holds, comparable before and after a call. */
async function held(): Promise<unknown> {
  const { sessions } = await unary<object, { sessions: unknown[] }>(
    client,
    client.ListSessions,
    {},
    TEST_CONTROL_TOKEN,
  );
  return sessions;
}

function expectNoBug(method: string, request: unknown, outcome: Outcome): void {
  if (BUG_CODES.includes(outcome.code)) {
    throw new Error(
      `${method} -> ${grpc.status[outcome.code]} (${outcome.details}) for ${JSON.stringify(request)?.slice(0, 300)}`,
    );
  }
}

const unaryMethods = Object.entries(SERVICE).filter(([, definition]) => !definition.requestStream);

test('every AgentCtl method is fuzzed', () => {
  expect(Object.keys(unaryRequests(['placeholder'])).sort()).toEqual(unaryMethods.map(([name]) => name).sort());
  const streams = ['Attach', 'StreamProviderUpdates'];
  expect(Object.keys(SERVICE).sort()).toEqual([...unaryMethods.map(([name]) => name), ...streams].sort());
});

describe.each(unaryMethods)('%s', (method, definition) => {
  test('well-formed requests: never INTERNAL; a refusal changes nothing', async () => {
    const arbitrary = unaryRequests(liveIds)[method]!;
    await fc.assert(
      fc.asyncProperty(arbitrary, async (request) => {
        const before = await held();
        const outcome = await call(method, request);
        expectNoBug(method, request, outcome);
        if (outcome.code !== grpc.status.OK)
          expect({ request, after: await held() }).toEqual({ request, after: before });
      }),
      { seed: SEED, numRuns: RUNS_PER_METHOD, endOnFailure: true },
    );
    expect(isUp()).toBe(true);
  });

  test('bytes off the wire: never INTERNAL; what does not decode is INVALID_ARGUMENT', async () => {
    // Found by this suite: grpc-js itself answered INTERNAL for these bytes.
    expect(await callRaw(definition.path, Uint8Array.from([3, 3, 195, 4]))).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      details: `the ${method} request could not be decoded`,
    });
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), async (bytes) => {
        const before = await held();
        const outcome = await callRaw(definition.path, bytes);
        expectNoBug(method, [...bytes], outcome);
        if (outcome.code !== grpc.status.OK) expect({ bytes, after: await held() }).toEqual({ bytes, after: before });
      }),
      { seed: SEED, numRuns: RUNS_PER_METHOD / 2, endOnFailure: true },
    );
    expect(isUp()).toBe(true);
  });
});

test('Attach: any sequence of messages ends without INTERNAL', async () => {
  await fc.assert(
    fc.asyncProperty(attachMessages(), async (messages) => {
      const stream = client.Attach(controlTokenMetadata(TEST_CONTROL_TOKEN));
      const ended = new Promise<Outcome>((resolve) =>
        stream.on('status', (status: grpc.StatusObject) => resolve(status)),
      );
      stream.on('data', () => undefined);
      stream.on('error', () => undefined);
      for (const message of messages) stream.write(message);
      stream.end();
      expectNoBug('Attach', messages, await ended);
    }),
    { seed: SEED, numRuns: RUNS_PER_METHOD, endOnFailure: true },
  );
  expect(isUp()).toBe(true);
});

test('StreamProviderUpdates: every call answered once, in order, never internal; the stream ends OK', async () => {
  await fc.assert(
    fc.asyncProperty(providerUpdateCalls(liveIds), async (calls) => {
      const { answers, status } = await exchangeProviderUpdates(client, calls, TEST_CONTROL_TOKEN);
      expectNoBug('StreamProviderUpdates', calls, status);
      expect({ calls, code: status.code }).toEqual({ calls, code: grpc.status.OK });
      expect(answers.map((answer) => answer.call_id)).toEqual(calls.map((message) => message.call_id));
      expect(answers.filter((answer) => answer.error?.code === 'internal')).toEqual([]);
      const results = answers.flatMap((answer) => answer.batch?.results ?? []);
      expect(results.filter((result) => result.error?.code === 'internal')).toEqual([]);
    }),
    { seed: SEED, numRuns: RUNS_PER_METHOD, endOnFailure: true },
  );
  expect(isUp()).toBe(true);
});

test('StreamProviderUpdates: one update alone in its call; a refused one changes nothing', async () => {
  await fc.assert(
    fc.asyncProperty(providerUpdate(liveIds), async (update) => {
      const before = await held();
      const call = { call_id: '1', batch: { updates: [update] } };
      const { answers, status } = await exchangeProviderUpdates(client, [call], TEST_CONTROL_TOKEN);
      expectNoBug('StreamProviderUpdates', update, status);
      const [result] = answers[0]?.batch?.results ?? [];
      expect({ update, code: status.code, answered: result?.outcome }).toEqual({
        update,
        code: grpc.status.OK,
        answered: expect.stringMatching(/^(held|error)$/) as string,
      });
      if (result?.error != null) {
        expect({ update, code: result.error.code }).not.toEqual({ update, code: 'internal' });
        expect({ update, after: await held() }).toEqual({ update, after: before });
      }
    }),
    { seed: SEED, numRuns: RUNS_PER_METHOD, endOnFailure: true },
  );
  expect(isUp()).toBe(true);
});

describe.each(['Attach', 'StreamProviderUpdates'] as const)('%s', (method) => {
  test('bytes that are no message end the stream with INVALID_ARGUMENT', async () => {
    const identity = (value: Buffer) => value;
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 64 }), async (bytes) => {
        const stream = raw.makeBidiStreamRequest(
          SERVICE[method].path,
          identity,
          identity,
          controlTokenMetadata(TEST_CONTROL_TOKEN),
        );
        const ended = new Promise<Outcome>((resolve) =>
          stream.on('status', (status: grpc.StatusObject) => resolve(status)),
        );
        stream.on('data', () => undefined);
        stream.on('error', () => undefined);
        stream.write(Buffer.from(bytes));
        stream.end();
        expectNoBug(method, [...bytes], await ended);
      }),
      { seed: SEED, numRuns: RUNS_PER_METHOD / 2, endOnFailure: true },
    );
    expect(isUp()).toBe(true);
  });
});
