import { useEffect, useState } from 'preact/hooks';
import { api, type MrLifecycle as Lifecycle, type MrLink, ok, type PrLink, type Repository } from './api';

/** `https://host/path` of a repository's remote (https or scp-like `git@host:path`), without `.git`. */
function webBase(remote: string | null): string | undefined {
  if (remote === null) return undefined;
  const scp = /^[\w.-]+@([\w.-]+):(.+)$/.exec(remote);
  const url = scp !== null ? `https://${scp[1]}/${scp[2]}` : remote;
  return /^https?:\/\//.test(url) ? url.replace(/\.git$/, '').replace(/\/$/, '') : undefined;
}

function MrLifecycle(props: { taskId: string; mrId: string; tick: number }) {
  const [lifecycle, setLifecycle] = useState<Lifecycle | undefined>();
  useEffect(() => {
    ok(
      api.GET('/api/tasks/{id}/mrs/{mrId}/lifecycle', { params: { path: { id: props.taskId, mrId: props.mrId } } }),
    ).then(setLifecycle, () => setLifecycle(undefined));
  }, [props.taskId, props.mrId, props.tick]);
  if (lifecycle === undefined) return null;
  return (
    <span class="muted">
      {' '}
      lifecycle: {lifecycle.state ?? 'not polled'}
      {lifecycle.poll_error !== null && <span class="error"> ({lifecycle.poll_error})</span>}
    </span>
  );
}

/** Linked GitHub PRs and GitLab MRs, with each MR's polled lifecycle. */
export function Reviews(props: {
  taskId: string;
  prs: PrLink[];
  mrs: MrLink[];
  repositories: Repository[];
  tick: number;
}) {
  if (props.prs.length === 0 && props.mrs.length === 0) return null;
  const remoteOf = (id: string) => webBase(props.repositories.find((r) => r.id === id)?.remote_url ?? null);
  return (
    <section class="panel" aria-label="Pull and merge requests">
      <h2>PRs and MRs</h2>
      <ul class="plain">
        {props.prs.map((pr) => {
          const base = remoteOf(pr.repository_id);
          return (
            <li key={pr.id}>
              {base !== undefined ? (
                <a href={`${base}/pull/${pr.number}`} rel="noreferrer" target="_blank">
                  PR #{pr.number}
                </a>
              ) : (
                `PR #${pr.number}`
              )}{' '}
              <span class="badge">{pr.state}</span>
            </li>
          );
        })}
        {props.mrs.map((mr) => {
          const base = remoteOf(mr.repository_id);
          const host = base === undefined ? undefined : new URL(base).origin;
          return (
            <li key={mr.id}>
              {host !== undefined ? (
                <a href={`${host}/${mr.project_path}/-/merge_requests/${mr.iid}`} rel="noreferrer" target="_blank">
                  !{mr.iid}
                </a>
              ) : (
                `!${mr.iid}`
              )}{' '}
              <span class="badge">{mr.state}</span>
              <MrLifecycle taskId={props.taskId} mrId={mr.id} tick={props.tick} />
            </li>
          );
        })}
      </ul>
    </section>
  );
}
