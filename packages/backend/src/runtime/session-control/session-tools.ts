import { z } from 'zod';
import {
  findTool,
  ProviderSchema,
  QuestionCapabilitySchema,
  selectTools,
  TOOL_CATALOGUE,
  type ToolDefinition,
  type ToolInput,
  toolContextFromConfig,
} from '@kandev/protocol';
import type { AgentSession } from '../sessions/agent-session';
import type { RuntimeReport } from './session-view';

// GET /api/sessions/:id/tools: what a session's agent is served, with each tool's description and input
// JSON Schema from the one catalogue. The names come from agentctl (what `tools/list` answers now); when
// agentctl cannot be asked, the list the stored (desired) config selects, and `tools_from` says which.

export const SessionToolViewSchema = z
  .object({
    name: z.string(),
    description: z.string(),
    input_schema: z.record(z.string(), z.unknown()).describe("the tool's input JSON Schema"),
  })
  .strict();
export type SessionToolView = z.output<typeof SessionToolViewSchema>;

export const SessionToolsViewSchema = z
  .object({
    session_id: z.string(),
    revision: z.number().int(),
    applied_revision: z.number().int(),
    providers: z.array(ProviderSchema),
    question_capability: QuestionCapabilitySchema,
    tools_from: z
      .enum(['agentctl', 'launch_config'])
      .describe('`launch_config` when agentctl could not be asked: the list the stored config selects'),
    tools: z.array(SessionToolViewSchema),
    agentctl: z.object({ reachable: z.boolean(), error: z.string().optional() }).strict(),
  })
  .strict()
  .meta({ id: 'SessionTools' });
export type SessionToolsView = z.output<typeof SessionToolsViewSchema>;

const schemas = new WeakMap<ToolInput, Record<string, unknown>>();

/** The input's JSON Schema as agentctl lists it (no `$schema` dialect key), computed once per input. */
function inputSchemaOf(input: ToolInput): Record<string, unknown> {
  let schema = schemas.get(input);
  if (schema === undefined) {
    const { $schema: _dialect, ...rest } = z.toJSONSchema(input, { io: 'input' });
    schema = rest;
    schemas.set(input, schema);
  }
  return schema;
}

function toToolView(tool: ToolDefinition): SessionToolView {
  return { name: tool.name, description: tool.description, input_schema: inputSchemaOf(tool.input) };
}

/** Catalogue order (the order `tools/list` uses); a name this backend's catalogue lacks is kept, bare. */
function servedTools(names: readonly string[]): SessionToolView[] {
  const served = new Set(names);
  const known = [...TOOL_CATALOGUE.values()].filter((tool) => served.has(tool.name)).map(toToolView);
  const unknown = names
    .filter((name) => findTool(name) === undefined)
    .map((name) => ({ name, description: '', input_schema: {} }));
  return [...known, ...unknown];
}

export function toSessionToolsView(session: AgentSession, runtime: RuntimeReport): SessionToolsView {
  const config = session.launchConfig;
  const fromAgentctl = runtime.tools !== null;
  return {
    session_id: session.id,
    revision: session.revision,
    applied_revision: session.appliedRevision,
    providers: [...config.providers],
    question_capability: config.questionCapability,
    tools_from: fromAgentctl ? 'agentctl' : 'launch_config',
    tools: fromAgentctl ? servedTools(runtime.tools ?? []) : selectTools(toolContextFromConfig(config)).map(toToolView),
    agentctl: runtime.agentctl,
  };
}
