import { resolve } from 'node:path';
import type { SessionEventBody } from '@kandev/protocol';
import type { Logger } from '../logger';
import { connectAcpClient } from './acp-client';
import { agentEnvironment } from './agent-env';
import { agentMcpServer } from './agent-mcp-server';
import { spawnAgentProcess } from './agent-process';
import { AgentRunner } from './agent-runner';
import type { PermissionAsker } from './permission-responder';
import type { AgentLauncher } from './session-agent';

export interface AgentLauncherDeps {
  /** The safe part of agentctl's environment (config.agentBaseEnv). */
  readonly baseEnv: Readonly<Record<string, string>>;
  /** Where an agent without a cwd runs, and what a relative cwd is resolved against. */
  readonly defaultCwd: string;
  readonly mcpHost: string;
  /** agentctl's actual MCP port; read when an agent is launched (the listener is up by then). */
  readonly mcpPort: () => number;
  readonly startTimeoutMs: number;
  readonly stopGraceMs: number;
  /** See AgentRunnerDeps. */
  readonly mcpConnectTimeoutMs: number;
  readonly toolsRefreshGraceMs: number;
  readonly publish: (sessionId: string, event: SessionEventBody) => void;
  /** Answers permission requests of sessions whose policy is ask (the Attach hub). */
  readonly permissions: PermissionAsker;
  readonly log: Logger;
  readonly now?: () => Date;
}

/** The production launcher: real processes, the SDK's ACP client, the session's MCP server injected. */
export function createAgentLauncher(deps: AgentLauncherDeps): AgentLauncher {
  return {
    create(config, prompts, tools) {
      const { sessionId } = config;
      const log = deps.log.child({ sessionId });
      const { env, dropped } = agentEnvironment(deps.baseEnv, config.agent.env);
      if (dropped.length > 0) log.warn({ dropped }, 'reserved KANDEV_ variables left out of the agent environment');
      const spec = {
        sessionId,
        taskId: config.taskId,
        permissionPolicy: config.agent.permissionPolicy,
        process: {
          command: config.agent.command,
          args: config.agent.args,
          cwd: resolve(deps.defaultCwd, config.agent.cwd ?? '.'),
          env,
        },
        mcpServer: config.agent.supportsMcp
          ? agentMcpServer(deps.mcpHost, deps.mcpPort(), sessionId, config.mcpToken)
          : null,
        systemPrompt: config.systemPrompt,
        resumeAcpSessionId: config.agent.resumeAcpSessionId,
      };
      return new AgentRunner(spec, prompts, {
        spawn: (process) => spawnAgentProcess(process, log),
        connect: (stdio, events) => connectAcpClient(stdio, events, log),
        publish: (event) => deps.publish(sessionId, event),
        log,
        now: deps.now ?? (() => new Date()),
        startTimeoutMs: deps.startTimeoutMs,
        stopGraceMs: deps.stopGraceMs,
        permissions: deps.permissions,
        tools,
        mcpConnectTimeoutMs: deps.mcpConnectTimeoutMs,
        toolsRefreshGraceMs: deps.toolsRefreshGraceMs,
      });
    },
  };
}
