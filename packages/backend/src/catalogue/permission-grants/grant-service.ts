import { AppError, type PermissionRequestInfo } from '@kandev/protocol';
import type { Logger } from '../../platform/logger/logger';
import { newId } from '../../platform/store/row-values';
import type { UnitOfWork } from '../../platform/store/unit-of-work';
import { decideByGrants, grantKeyOf, type PermissionGrant, settleAnswer } from './grant';

// A task's permission grants: checked before anyone is asked, recorded when someone answers "always",
// listed and revoked by operators (rules in grant.ts). Logs carry ids and kinds, never titles: a title
// is the agent's command line or file, as sensitive as tool arguments.

export interface PermissionGrantDeps {
  uow: UnitOfWork;
  clock: () => Date;
  logger: Logger;
}

/** The session a request came from, as its row says (never the request's own claim). */
export interface GrantSession {
  readonly id: string;
  readonly taskId: string;
}

export class PermissionGrants {
  constructor(private readonly deps: PermissionGrantDeps) {}

  /** The allow_once option id when a grant of the session's task covers the request; null: ask someone. */
  async lookup(session: GrantSession, request: PermissionRequestInfo, log: Logger): Promise<string | null> {
    const key = grantKeyOf(request);
    if (key === null) return null;
    const found = await this.deps.uow.read.permissionGrants.findByKey(session.taskId, key);
    const verdict = decideByGrants(request, found === undefined ? [] : [found]);
    if (verdict.kind === 'ask') return null;
    log.info(
      { grantId: verdict.grant.id, toolKind: request.toolKind, optionKind: 'allow_once' },
      'permission allowed by a task grant',
    );
    return verdict.optionId;
  }

  /**
   * What the agent receives for the option someone chose: "always" is answered allow_once and
   * remembered for the task (not for an archived one). Failing to remember is logged, never turned
   * into a reject: the answer itself stands.
   */
  async settle(session: GrantSession, request: PermissionRequestInfo, chosen: string, grantedBy: string, log: Logger) {
    const answer = settleAnswer(request, chosen);
    if (answer.remember === null) return answer.optionId;
    const grant: PermissionGrant = {
      ...answer.remember,
      id: newId(),
      taskId: session.taskId,
      grantedBy,
      sessionId: session.id,
      createdAt: this.deps.clock().toISOString(),
    };
    try {
      const recorded = await this.deps.uow.transaction(async (stores) => {
        // Archiving deletes a task's grants; one answered while the archive ran must not outlive it.
        const task = await stores.tasks.findById(session.taskId);
        if (task === undefined || task.archivedAt !== null) return false;
        await stores.permissionGrants.insertIfAbsent(grant);
        return true;
      });
      if (recorded) log.info({ grantId: grant.id, toolKind: request.toolKind }, 'permission granted for the task');
    } catch (err) {
      log.error({ err }, 'could not record a permission grant; allowed once');
    }
    return answer.optionId;
  }

  /** GET /api/tasks/:id/permission-grants: oldest first; not_found for an unknown task. */
  async list(taskId: string): Promise<PermissionGrant[]> {
    const { tasks, permissionGrants } = this.deps.uow.read;
    if ((await tasks.findById(taskId)) === undefined) throw new AppError('not_found', `task ${taskId} not found`);
    return permissionGrants.listByTask(taskId);
  }

  /** DELETE /api/tasks/:id/permission-grants/:grant_id: the next matching request asks again. */
  async revoke(taskId: string, grantId: string): Promise<void> {
    await this.deps.uow.transaction(async (stores) => {
      if (!(await stores.permissionGrants.delete(taskId, grantId))) {
        throw new AppError('not_found', `permission grant ${grantId} not found for task ${taskId}`);
      }
      await stores.events.append({
        type: 'permission_grant.revoked',
        taskId,
        sessionId: null,
        data: { grant_id: grantId },
        at: this.deps.clock().toISOString(),
      });
    });
    this.deps.logger.info({ taskId, grantId }, 'permission grant revoked');
  }
}
