import { z } from 'zod';
import type { components } from '@kandev/rest-client';

// The backend's answers as the CLI reads them. REST answers are the types generated from the
// backend's OpenAPI document (@kandev/rest-client, npm run gen:rest-client): nothing here restates
// them. The live event stream is not in that document (docs/events.md), so the event payloads the CLI
// renders are validated here, each field typed by the REST shape it carries.

type Schemas = components['schemas'];

export type Workspace = Schemas['Workspace'];
export type Repository = Schemas['Repository'];
export type Task = Schemas['Task'];
export type SessionSummary = Schemas['SessionSummary'];
export type Session = Schemas['Session'];
export type Profile = Schemas['AgentProfile'];
export type Question = Schemas['Question'];
export type ParentQuestion = Schemas['ParentQuestion'];
export type QuestionItem = Question['questions'][number];
export type Tools = Schemas['SessionTools'];
export type Message = Schemas['Message'];

/** A string typed as a REST enum: a newer backend's new value still reads (and prints as it is). */
const known = <T extends string>() => z.custom<T>((value) => typeof value === 'string');

/** A conversation entry as `message.created` / `message.updated` events carry it. */
export const MessageSchema = z.looseObject({
  id: z.string().min(1),
  task_id: z.string().min(1),
  session_id: z.string().nullable(),
  type: known<Message['type']>(),
  author: z.string(),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.string(),
}) satisfies z.ZodType<Message>;

/** One asked item of a question event (operator or parent question); the stored id is not needed here. */
export const QuestionItemSchema = z.looseObject({
  id: z.string().optional(),
  prompt: z.string(),
  title: z.string().optional(),
  options: z.array(z.looseObject({ label: z.string(), description: z.string().optional() })).optional(),
}) satisfies z.ZodType<Omit<QuestionItem, 'id'>>;

export type Token = Schemas['ApiToken'];
export type CreatedToken = Schemas['CreatedApiToken'];
export type Prompt = Schemas['QueuedPrompt'];
export type SourceBatch = Schemas['SourceBatch'];
export type SourceRemoval = Schemas['SourceRemoval'];
export type Launched = Schemas['LaunchedSession'];
