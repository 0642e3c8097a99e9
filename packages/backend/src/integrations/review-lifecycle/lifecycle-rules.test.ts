import fc from 'fast-check';
import { MR_STATES, type MrState } from '../provider-automation/review-link';
import { type Checkpoint, coalescingKey, evaluate, type EvaluationInput, type PromptSwitches } from './lifecycle-rules';

const ALL_ON: PromptSwitches = { prompt_on_review_requested: true, prompt_on_merged: true, prompt_on_closed: true };
const ME = 'reviewer-bot';

function run(observations: { state: MrState; reviewers: string[] }[], switches = ALL_ON, username: string | null = ME) {
  let checkpoint: Checkpoint | null = null;
  const events: string[] = [];
  for (const observed of observations) {
    const input: EvaluationInput = {
      checkpoint,
      state: observed.state,
      reviewers: observed.reviewers,
      username,
      switches,
    };
    const result = evaluate(input);
    events.push(...result.prompts.map((p) => p.event));
    checkpoint = result.checkpoint;
  }
  return { events, checkpoint };
}

const open = (...reviewers: string[]) => ({ state: 'opened' as const, reviewers });

describe('MR lifecycle rules', () => {
  test('review requested false -> true prompts once; repeats prompt nothing; true -> false -> true prompts again', () => {
    expect(run([open(), open(ME)]).events).toEqual(['review_requested']);
    expect(run([open(), open(ME), open(ME), open(ME)]).events).toEqual(['review_requested']);
    expect(run([open(), open(ME), open(), open(ME)]).events).toEqual(['review_requested', 'review_requested']);
  });

  test('the first observation of an already-requested MR only sets the baseline', () => {
    const first = evaluate({ checkpoint: null, state: 'opened', reviewers: [ME], username: ME, switches: ALL_ON });
    expect(first).toMatchObject({ prompts: [], result: 'baseline', checkpoint: { review_requested: true, seq: 0 } });
    expect(run([open(ME), open(ME)]).events).toEqual([]);
  });

  test('usernames compare case-insensitively; someone else requested is not us', () => {
    expect(run([open(), open('Reviewer-Bot')]).events).toEqual(['review_requested']);
    expect(run([open(), open('someone-else')]).events).toEqual([]);
  });

  test('merged and closed prompt once on the transition into the state; locked prompts nothing', () => {
    expect(run([open(), { state: 'merged', reviewers: [] }, { state: 'merged', reviewers: [] }]).events).toEqual([
      'merged',
    ]);
    expect(run([open(), { state: 'closed', reviewers: [] }, { state: 'closed', reviewers: [] }]).events).toEqual([
      'closed',
    ]);
    expect(run([open(), { state: 'locked', reviewers: [ME] }, { state: 'locked', reviewers: [ME] }]).events).toEqual(
      [],
    );
    expect(run([{ state: 'merged', reviewers: [] }]).events).toEqual([]);
  });

  test('a switch that is off prompts nothing but still moves the checkpoint', () => {
    const off = { ...ALL_ON, prompt_on_merged: false };
    const { events, checkpoint } = run([open(), { state: 'merged', reviewers: [] }], off);
    expect(events).toEqual([]);
    expect(checkpoint?.state).toBe('merged');
  });

  test('no persisted username: review-requested evaluation is skipped, with the reason', () => {
    const result = evaluate({
      checkpoint: { state: 'opened', review_requested: false, seq: 0 },
      state: 'opened',
      reviewers: [ME],
      username: null,
      switches: ALL_ON,
    });
    expect(result).toMatchObject({ prompts: [], reviewSkipped: 'no_authenticated_username' });
    expect(result.checkpoint.review_requested).toBe(false);
  });

  test('unknown reviewers keep the baseline as it was', () => {
    const checkpoint: Checkpoint = { state: 'opened', review_requested: false, seq: 2 };
    const result = evaluate({ checkpoint, state: 'opened', reviewers: null, username: ME, switches: ALL_ON });
    expect(result).toMatchObject({ prompts: [], checkpoint, reviewSkipped: 'reviewers_unavailable' });
  });

  const observation = fc.record({
    state: fc.constantFrom(...MR_STATES),
    reviewers: fc.subarray([ME, 'alice', 'bob']),
  });

  test('property: one prompt per real transition (counted independently of the rules)', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 30 }), (observations) => {
        const expected: string[] = [];
        let previous = null as { state: MrState; requested: boolean | null } | null;
        for (const o of observations) {
          const requested = o.state === 'opened' ? o.reviewers.includes(ME) : null;
          if (previous !== null) {
            if (o.state !== previous.state && (o.state === 'merged' || o.state === 'closed')) expected.push(o.state);
            if (requested === true && previous.requested === false) expected.push('review_requested');
          }
          previous = { state: o.state, requested: requested ?? previous?.requested ?? null };
        }
        expect(run(observations).events).toEqual(expected);
      }),
    );
  });

  test('property: idempotent under repeated observations, and every prompt has its own coalescing key', () => {
    fc.assert(
      fc.property(fc.array(observation, { maxLength: 20 }), fc.array(fc.nat(3), { maxLength: 20 }), (obs, repeats) => {
        const repeated = obs.flatMap((o, i) => Array.from({ length: 1 + (repeats[i] ?? 0) }, () => o));
        expect(run(repeated).events).toEqual(run(obs).events);
        let checkpoint: Checkpoint | null = null;
        const keys: string[] = [];
        for (const o of repeated) {
          const result = evaluate({
            checkpoint,
            state: o.state,
            reviewers: o.reviewers,
            username: ME,
            switches: ALL_ON,
          });
          keys.push(...result.prompts.map((p) => coalescingKey('link', p)));
          checkpoint = result.checkpoint;
        }
        expect(new Set(keys).size).toBe(keys.length);
      }),
    );
  });
});
