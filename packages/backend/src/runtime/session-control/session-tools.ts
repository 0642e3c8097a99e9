import { z } from 'zod';
import {
  findTool,
  type Provider,
  type QuestionCapability,
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

export interface SessionToolView {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
}

export interface SessionToolsView {
  session_id: string;
  revision: number;
  applied_revision: number;
  providers: Provider[];
  question_capability: QuestionCapability;
  tools_from: 'agentctl' | 'launch_config';
  tools: SessionToolView[];
  agentctl: { reachable: boolean; error?: string };
}

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
