import type { Command } from 'commander';
import { type Ctx, run } from '../context';
import { CliError, usage } from '../errors';
import { type Out, paint } from '../output';
import { askText, pick } from '../picker';
import type { ParentQuestion, Question, QuestionItem } from '../schemas';
import { resolveId } from '../conventions/resolve-id';
import { allWorkspaces, collect } from './noun-helpers';
import type { operations } from '@kandev/rest-client';

// `kandev questions`: what waits on someone: operator questions (answered here) and autopilot tasks'
// questions to their parent (answered by the parent's agent). `kandev answer`: pick, or --option/--text.

async function pendingParentQuestions(ctx: Ctx): Promise<ParentQuestion[]> {
  const found: ParentQuestion[] = [];
  // The server names the tasks that wait on a question; only those are asked for their parent questions.
  const waiting = [];
  for (const { id: workspace_id } of await allWorkspaces(ctx)) {
    const query = { workspace_id, pending_question: 'true' as const };
    const tasks = await ctx.api.all('tasks', (page) =>
      ctx.api.rest.GET('/api/tasks', { params: { query: { ...query, ...page } } }),
    );
    waiting.push(...tasks.filter((task) => task.pending_action === 'clarification'));
  }
  for (const task of waiting) {
    const { parent_questions: items } = await ctx.api.ok(
      ctx.api.rest.GET('/api/tasks/{id}/parent-questions', { params: { path: { id: task.id } } }),
    );
    found.push(...items.filter((question) => question.status === 'pending'));
  }
  return found;
}

function printItems(out: Out, items: readonly QuestionItem[]): void {
  for (const [index, item] of items.entries()) {
    out.line(`  ${index + 1}) ${item.prompt}`);
    if (item.options === undefined) out.line(paint(out, 'dim', '     (free text)'));
    for (const [n, option] of (item.options ?? []).entries()) {
      const detail = option.description === undefined ? '' : paint(out, 'dim', ` — ${option.description}`);
      out.line(`     ${n + 1}. ${option.label}${detail}`);
    }
  }
}

function printQuestions(ctx: Ctx, operator: Question[], parent: ParentQuestion[]): void {
  if (operator.length === 0 && parent.length === 0) ctx.out.line(paint(ctx.out, 'dim', 'no pending questions'));
  for (const question of operator) {
    const expires =
      question.expires_at === null || question.expires_at === undefined ? '' : `, expires ${question.expires_at}`;
    ctx.out.line(`${paint(ctx.out, 'bold', question.id)}  operator question, task ${question.task_id}${expires}`);
    if (question.context) ctx.out.line(paint(ctx.out, 'dim', `  ${question.context}`));
    printItems(ctx.out, question.questions);
  }
  for (const question of parent) {
    ctx.out.line(
      `${paint(ctx.out, 'bold', question.id)}  parent question, task ${question.child_task_id} asks ${question.parent_task_id ?? '-'}`,
    );
    printItems(ctx.out, question.questions);
  }
}

/** An option by label (case-insensitive) or by 1-based number. */
function matchOption(item: QuestionItem, given: string, index: number): string {
  const options = item.options ?? [];
  const byLabel = options.find((option) => option.label.toLowerCase() === given.trim().toLowerCase());
  if (byLabel !== undefined) return byLabel.label;
  const number = /^\d+$/.test(given.trim()) ? Number(given.trim()) : NaN;
  const byNumber = options[number - 1];
  if (byNumber !== undefined) return byNumber.label;
  const labels = options.map((option, n) => `${n + 1}. ${option.label}`).join(', ');
  throw usage(`question ${index + 1} has no option "${given}" (options: ${labels})`);
}

interface AnswerOptions {
  option?: string[];
  text?: string[];
}

type AnswerBody = operations['answerQuestion']['requestBody']['content']['application/json']['answers'][number];

async function collectAnswers(ctx: Ctx, question: Question, options: AnswerOptions): Promise<AnswerBody[]> {
  const givenOptions = [...(options.option ?? [])];
  const givenTexts = [...(options.text ?? [])];
  const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true;
  const io = { input: process.stdin, output: process.stdout };
  const answers: AnswerBody[] = [];
  for (const [index, item] of question.questions.entries()) {
    const heading = `${question.questions.length > 1 ? `${index + 1}) ` : ''}${item.prompt}`;
    if (item.options !== undefined) {
      const given = givenOptions.shift();
      if (given !== undefined) answers.push({ question_index: index, option: matchOption(item, given, index) });
      else if (interactive) {
        ctx.out.line(paint(ctx.out, 'bold', heading));
        const chosen = await pick(
          io,
          ctx.out,
          item.options.map((o) => o.label),
          item.options.map((o) => o.description ?? ''),
        );
        answers.push({ question_index: index, option: item.options[chosen]?.label ?? '' });
      } else
        throw usage(`question ${index + 1} (${item.prompt}) needs --option <label|number> (no terminal to ask on)`);
    } else {
      const given = givenTexts.shift();
      if (given !== undefined) answers.push({ question_index: index, text: given });
      else if (interactive) answers.push({ question_index: index, text: await askText(io, `${heading}\n> `) });
      else throw usage(`question ${index + 1} (${item.prompt}) needs --text "<answer>" (no terminal to ask on)`);
    }
  }
  if (givenOptions.length > 0 || givenTexts.length > 0) {
    throw usage('more --option/--text values than the question has places for');
  }
  return answers;
}

/** The operator question; a parent question's id is a clear usage error (its parent's agent answers it). */
async function operatorQuestion(ctx: Ctx, id: string): Promise<Question> {
  try {
    return await ctx.api.ok(ctx.api.rest.GET('/api/questions/{id}', { params: { path: { id } } }));
  } catch (error) {
    if (!(error instanceof CliError) || error.kind !== 'not_found') throw error;
    const parent = await ctx.api
      .ok(ctx.api.rest.GET('/api/parent-questions/{id}', { params: { path: { id } } }))
      .catch(() => undefined);
    if (parent === undefined) throw error;
    throw usage(
      `${id} is a question to the parent task ${parent.parent_task_id ?? ''}: its agent answers it; ` +
        `to step in, prompt the child's session (kandev prompt <session> "...")`,
    );
  }
}

export function addQuestionCommands(program: Command): void {
  program
    .command('questions')
    .description('pending operator questions and pending questions to parent tasks')
    .command('ls', { isDefault: true })
    .description('pending questions (operator and parent) and how many operator questions are in each state')
    .action(
      run(async (ctx) => {
        const query = { state: 'pending' as const };
        const first = await ctx.api.ok(
          ctx.api.rest.GET('/api/questions', { params: { query: { ...query, limit: 200 } } }),
        );
        const questions = [...first.questions];
        // The counts cover every question; the pending ones may span pages.
        if (first.next_cursor !== null) {
          const cursor = first.next_cursor;
          questions.push(
            ...(await ctx.api.all('questions', (page) =>
              ctx.api.rest.GET('/api/questions', {
                params: { query: { ...query, ...page, cursor: page.cursor ?? cursor } },
              }),
            )),
          );
        }
        const parent = await pendingParentQuestions(ctx);
        if (ctx.json) return ctx.out.json({ questions, parent_questions: parent, counts: first.counts });
        const { pending, answered, expired, cancelled } = first.counts;
        ctx.out.line(
          paint(
            ctx.out,
            'dim',
            `operator questions: ${pending} pending, ${answered} answered, ${expired} expired, ${cancelled} cancelled`,
          ),
        );
        printQuestions(ctx, questions, parent);
      }),
    );
  program
    .command('answer')
    .argument('<question>', 'the question id (or a unique prefix)')
    .option(
      '-o, --option <label|number>',
      'the chosen option, by label or number (one per question, in order)',
      collect,
    )
    .option('-t, --text <answer>', 'a free-text answer (one per question without options, in order)', collect)
    .description('answer an operator question: a picker on a terminal, --option/--text in scripts')
    .action(
      run(async (ctx, given: string, options: AnswerOptions) => {
        const id = await resolveId(ctx, 'question', given);
        const question = await operatorQuestion(ctx, id);
        if (question.state !== 'pending')
          throw new CliError('conflict', `question ${id} is ${question.state}, not pending`);
        const answers = await collectAnswers(ctx, question, options);
        const answered = await ctx.api.ok(
          ctx.api.rest.POST('/api/questions/{id}/answer', { params: { path: { id } }, body: { answers } }),
        );
        if (ctx.json) {
          ctx.out.json(answered);
          return;
        }
        const chosen = answers.map((answer) => answer.option ?? answer.text ?? '').join('; ');
        const { delivery } = answered;
        const outcome =
          delivery.to === 'waiting_call'
            ? 'delivered to the waiting agent'
            : delivery.to === 'queued_prompt'
              ? `delivered as queued prompt ${delivery.queued_prompt_id}`
              : `not delivered: ${delivery.reason}`;
        ctx.out.line(`answered ${paint(ctx.out, 'bold', id)}: ${chosen} (${outcome})`);
      }),
    );
}
