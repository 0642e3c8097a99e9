// The backend's AgentctlClient sends each batch of provider updates (at most 500) as one call on one
// StreamProviderUpdates stream per agentctl. Against a hand-made agentctl on a loopback port whose
// stream answers as each test scripts it: answers matched by call_id, a deadline per call, and a failed
// stream failing its waiting calls the way a unary call fails, then replaced by a new stream on the
// next batch.
import * as grpc from '@grpc/grpc-js';
import {
  AppError,
  loadAgentctlProto,
  type WireProviderUpdatesAnswer,
  type WireProviderUpdatesCallOutput,
} from '@kandev/protocol';
import { AgentctlClient, type AgentctlEndpoint, type ProviderUpdate } from '@kandev/backend/testing';
import { useCleanup } from '../../helpers/cleanup';
import { waitUntil } from '../../helpers/wait';

const cleanup = useCleanup();

type Stream = grpc.ServerDuplexStream<WireProviderUpdatesCallOutput, WireProviderUpdatesAnswer>;

/** One stream the fake agentctl accepted: what came on it, and whether the client cancelled it. */
interface Opened {
  stream: Stream;
  authorization: grpc.MetadataValue[];
  calls: WireProviderUpdatesCallOutput[];
  cancelled: boolean;
}

/** `onCall` decides what each stream does with each call (answer, hold, end); it sees the calls so far. */
async function startAgentctl(onCall: (opened: Opened, streamIndex: number) => void) {
  const streams: Opened[] = [];
  const server = new grpc.Server();
  server.addService(loadAgentctlProto().kandev.agentctl.v1.AgentCtl.service, {
    StreamProviderUpdates: (stream: Stream) => {
      const opened: Opened = {
        stream,
        authorization: stream.metadata.get('authorization'),
        calls: [],
        cancelled: false,
      };
      const index = streams.push(opened) - 1;
      stream.on('cancelled', () => (opened.cancelled = true));
      stream.on('data', (call: WireProviderUpdatesCallOutput) => {
        opened.calls.push(call);
        onCall(opened, index);
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, bound) =>
      err === null ? resolve(bound) : reject(err),
    ),
  );
  cleanup.defer(() => server.forceShutdown());
  const client = (timeoutMs = 10_000) => {
    const agentctl = new AgentctlClient(
      { grpcAddress: `127.0.0.1:${port}`, controlToken: 'control-token' } as AgentctlEndpoint,
      timeoutMs,
    );
    cleanup.defer(() => agentctl.close());
    return agentctl;
  };
  return { streams, client };
}

/** The answer agentctl gives when it applied every update of the call. */
function applied(call: WireProviderUpdatesCallOutput): WireProviderUpdatesAnswer {
  const results = (call.batch?.updates ?? []).map((update) => ({
    session_id: update.session_id,
    held: {
      outcome: 'UPDATE_OUTCOME_APPLIED' as const,
      tools_changed: true,
      revision: update.revision,
      providers: update.providers,
      tool_names: ['get_task_kandev'],
    },
  }));
  return { call_id: call.call_id, batch: { results } };
}

const update = (sessionId: string, revision = 2): ProviderUpdate => ({
  sessionId,
  providers: ['github', 'gitlab'],
  revision,
});

/** The AppError code a call failed with. */
async function failureCode(call: Promise<unknown>): Promise<string> {
  const error: unknown = await call.then(
    () => new Error('expected the call to fail'),
    (reason: unknown) => reason,
  );
  if (!(error instanceof AppError)) throw error;
  return error.code;
}

describe('AgentctlClient: provider updates on StreamProviderUpdates', () => {
  test('answers find their calls by call_id, in any order; one stream carries every batch', async () => {
    const { streams, client } = await startAgentctl((opened) => {
      const [first, second] = opened.calls;
      if (first === undefined || second === undefined) return; // holds the first until the second came
      opened.stream.write(applied(second));
      opened.stream.write(applied(first));
    });
    const agentctl = client();
    const [one, two] = await Promise.all([
      agentctl.updateProvidersBatch([update('session-one')]),
      agentctl.updateProvidersBatch([update('session-two', 3), update('session-three')]),
    ]);
    expect(one.map((outcome) => outcome.ok && outcome.result.revision)).toEqual([2]);
    expect(two.map((outcome) => outcome.ok && outcome.result.revision)).toEqual([3, 2]);
    expect(streams.map(({ authorization, calls }) => [authorization, calls.map((call) => call.call_id)])).toEqual([
      [['Bearer control-token'], ['1', '2']],
    ]);
  });

  test("500 updates with long tool lists are answered under gRPC's 4 MB limit; more in one call are refused", async () => {
    // Each session's answer names 40 tools of ~100 characters: 500 make a ~2 MB answer (the backend's
    // pusher sends no more per call; 10,000 in one answer passed the limit and failed the whole stream).
    // Nothing is answered until the test says so: the call is on its stream before any answer.
    const toolNames = Array.from({ length: 40 }, (_, i) => `${'long_tool_name_'.repeat(6)}${i}_kandev`);
    let answering = false;
    const answerLast = (opened: Opened) => {
      const answer = applied(opened.calls.at(-1)!);
      for (const result of answer.batch?.results ?? []) if (result.held) result.held.tool_names = toolNames;
      opened.stream.write(answer);
    };
    const { streams, client } = await startAgentctl((opened) => {
      if (answering) answerLast(opened);
    });
    const agentctl = client();
    const updates = Array.from({ length: 500 }, (_, i) => update(`session-${i}`));
    const { answer } = await agentctl.sendProviderUpdates(updates);
    await waitUntil(() => streams[0]?.calls.length === 1, { timeoutMs: 30_000, what: 'the call at agentctl' });
    answering = true;
    answerLast(streams[0]!);
    const outcomes = await answer;
    expect(outcomes.map((outcome) => outcome.ok && outcome.result.toolNames.length)).toEqual(updates.map(() => 40));
    const tooMany = [...updates, update('session-500')];
    expect(await failureCode(agentctl.sendProviderUpdates(tooMany))).toBe('internal');
    // Barrier: a later call is answered; agentctl saw only it after the first.
    expect(await agentctl.updateProvidersBatch([update('after')])).toMatchObject([{ ok: true }]);
    const sent = streams.flatMap(({ calls }) => calls.map((call) => call.batch?.updates.map((u) => u.session_id)));
    expect(sent.map((ids) => ids?.length)).toEqual([500, 1]);
    expect(sent[0]).toEqual(updates.map((u) => u.sessionId));
  });

  test('a call past its deadline fails deadline_exceeded; its stream is cancelled, the next batch opens another', async () => {
    const { streams, client } = await startAgentctl((opened, index) => {
      if (index > 0) opened.stream.write(applied(opened.calls.at(-1)!)); // the first stream never answers
    });
    const agentctl = client(300);
    expect(await failureCode(agentctl.updateProvidersBatch([update('stuck')]))).toBe('deadline_exceeded');
    // A bound on a hang only: the cancel lands at once, but a CPU-saturated run has taken over 5 s.
    await waitUntil(() => streams[0]?.cancelled === true, { timeoutMs: 30_000, what: 'the stuck stream cancelled' });
    const [outcome] = await agentctl.updateProvidersBatch([update('after')]);
    expect(outcome).toMatchObject({ ok: true, result: { revision: 2 } });
    expect(streams.map((opened) => opened.calls.map((call) => call.batch?.updates[0]?.session_id))).toEqual([
      ['stuck'],
      ['after'],
    ]);
  });

  test('a stream that fails fails every call waiting on it with its status; the next batch opens another', async () => {
    const { streams, client } = await startAgentctl((opened, index) => {
      if (index > 0) opened.stream.write(applied(opened.calls.at(-1)!));
      else if (opened.calls.length === 2)
        opened.stream.emit('error', { code: grpc.status.FAILED_PRECONDITION, details: 'replaced' });
    });
    const agentctl = client();
    const waiting = [agentctl.updateProvidersBatch([update('a')]), agentctl.updateProvidersBatch([update('b')])];
    expect(await Promise.all(waiting.map(failureCode))).toEqual(['failed_precondition', 'failed_precondition']);
    expect(await agentctl.updateProvidersBatch([update('c')])).toMatchObject([{ ok: true }]);
    expect(streams).toHaveLength(2);
  });

  test('agentctl ending the stream fails a waiting call unavailable; an error answer is its call’s AppError', async () => {
    const { client } = await startAgentctl((opened, index) => {
      const call = opened.calls.at(-1)!;
      if (index === 0) opened.stream.end();
      else opened.stream.write({ call_id: call.call_id, error: { code: 'invalid_argument', message: 'refused' } });
    });
    const agentctl = client();
    expect(await failureCode(agentctl.updateProvidersBatch([update('ended')]))).toBe('unavailable');
    const refused = agentctl.updateProvidersBatch([update('refused')]);
    await expect(refused).rejects.toThrow('agentctl StreamProviderUpdates: refused');
    expect(await failureCode(refused)).toBe('invalid_argument');
  });

  test('close() cancels the stream: the waiting call fails unavailable and agentctl sees the cancel', async () => {
    const { streams, client } = await startAgentctl(() => undefined);
    const agentctl = client();
    const waiting = agentctl.updateProvidersBatch([update('waiting')]);
    await waitUntil(() => streams[0]?.calls.length === 1, { timeoutMs: 5_000, what: 'the call at agentctl' });
    agentctl.close();
    expect(await failureCode(waiting)).toBe('unavailable');
    await waitUntil(() => streams[0]?.cancelled === true, { timeoutMs: 5_000, what: 'the cancel at agentctl' });
  });
});
