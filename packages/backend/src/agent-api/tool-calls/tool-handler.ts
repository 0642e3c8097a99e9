import type { Logger } from '../../platform/logger/logger';
import type { PromptKicker } from '../../runtime/prompt-queue/drain-gate';
import type { QuestionService } from '../../runtime/questions/question-service';
import type { RuntimeSessionControl } from '../../runtime/session-control/runtime-session-control';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import type { CallBinding } from '../../runtime/sessions/task-binding';
import type { TaskService } from '../../catalogue/tasks/task-service';
import type { WorkspaceSourceService } from '../../runtime/workspace-sources/workspace-source-service';

/**
 * One tool call as the backend handles it. The identity (CallBinding) comes from agentctl's session
 * binding (the Attach request), never from the agent's arguments; the dispatcher has already checked
 * that the session exists, is live, and was launched on the agentctl the call arrived from.
 */
export interface ToolCallContext extends CallBinding {
  readonly callId: string;
  readonly toolName: string;
  /** Tells the agent the call is still being worked on (relayed as an MCP progress notification). */
  reportProgress(message: string): void;
  /** Aborted when the call is cancelled or its channel dropped: stop waiting, write nothing more. */
  readonly signal: AbortSignal;
}

/** What a tool returns to the agent: text for the model, optional structured JSON. */
export interface ToolReply {
  text: string;
  structured?: Record<string, unknown>;
  /** A failure the model can act on (unknown task id, wrong state): an MCP result with isError: true. */
  isError?: boolean;
}

/**
 * A backend tool handler. `args` is untrusted (agentctl validated it, but discovery is not a security
 * boundary): parse it with the tool's strict zod schema first. Throw AppError for refusals
 * (permission_denied, not_found, failed_precondition, invalid_argument); the dispatcher turns them into
 * a structured ToolError without leaking internals.
 */
export interface ToolHandler {
  (context: ToolCallContext, args: unknown): Promise<ToolReply>;
  /**
   * Runs before the dispatcher's served check, for refusals that say more than "not served" (an
   * autopilot root learns there is nobody to ask). Writes nothing.
   */
  precheck?: (context: ToolCallContext) => Promise<void>;
}

export type ToolHandlers = Readonly<Record<string, ToolHandler>>;

/** What tool handlers may use. Extend it additively; handlers take only what they need. */
export interface ToolHandlerDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
  tasks: TaskService;
  workspaceSources: WorkspaceSourceService;
  /** Stops child sessions' runtimes for stop_task_kandev; without it the stop is recorded only. */
  runtimeSessions?: RuntimeSessionControl;
  /** Operator questions: held ask_user_question calls, ended when their session stops. */
  questions: QuestionService;
  /** Drains a session's queue after a tool queued a prompt for it (message_task_kandev). */
  prompts: PromptKicker;
  /** Told of each accepted parent-question reply: a held permission request may wait for it. */
  parentAnswers?: { answered(questionId: string, reply: string): void };
}
