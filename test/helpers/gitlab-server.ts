// A local HTTP server that answers like GitLab REST v4 for the two routes the backend reads:
// GET /api/v4/user and GET /api/v4/projects/:id/merge_requests/:iid. Bodies are the JSON fixtures in
// test/fixtures/gitlab/ (shaped like GitLab's documented responses) with per-test changes; unknown
// routes answer 404. Tests script failures (401, 429 + Retry-After, 5xx) and count requests.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { Cleanup } from './cleanup';
import { listenOnLoopback } from './loopback-server';
import { REPO_ROOT } from './processes';

const FIXTURES = join(REPO_ROOT, 'test/fixtures/gitlab');

function fixture(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')) as Record<string, unknown>;
}

export const GITLAB_TOKEN = 'glpat-test-token-0123456789';
/** The server listens on plain http here: a credential pointing at it needs KANDEV_GITLAB_INSECURE_HOSTS. */
export const GITLAB_TEST_HOST = '127.0.0.1';

export interface MrFixture {
  state: 'opened' | 'closed' | 'merged' | 'locked';
  reviewers: string[];
  sha: string;
}

export interface ScriptedResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Whether the request carried the expected PRIVATE-TOKEN (the token itself is not kept). */
  authorized: boolean;
}

export class GitlabTestServer {
  readonly requests: RecordedRequest[] = [];
  private readonly mrs = new Map<string, MrFixture>();
  private readonly scripted: ScriptedResponse[] = [];
  private validToken = GITLAB_TOKEN;
  username = 'reviewer-bot';

  constructor(
    readonly url: string,
    /** Base path of the API, '' for a gitlab.com-like host or e.g. '/gitlab' for a self-managed one. */
    readonly prefix: string,
  ) {}

  /** The base URL a workspace credential names (what the backend appends /api/v4 to). */
  get baseUrl(): string {
    return `${this.url}${this.prefix}`;
  }

  setMr(projectPath: string, iid: number, mr: Partial<MrFixture>): void {
    const key = `${projectPath}!${iid}`;
    const current = this.mrs.get(key) ?? { state: 'opened', reviewers: [], sha: '8'.repeat(40) };
    this.mrs.set(key, { ...current, ...mr });
  }

  /** The next requests (any route) get these responses, in order, instead of the fixtures. */
  script(...responses: ScriptedResponse[]): void {
    this.scripted.push(...responses);
  }

  /** The stored token stops working: every request answers 401 from now on. */
  revokeToken(): void {
    this.validToken = '';
  }

  /** Requests for one MR (GET /projects/:id/merge_requests/:iid). */
  mrRequests(projectPath: string, iid: number): number {
    const path = `${this.prefix}/api/v4/projects/${encodeURIComponent(projectPath)}/merge_requests/${iid}`;
    return this.requests.filter((r) => r.path === path).length;
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    const path = (req.url ?? '/').split('?')[0]!;
    const authorized = this.validToken !== '' && req.headers['private-token'] === this.validToken;
    this.requests.push({ method: req.method ?? 'GET', path, authorized });
    const scripted = this.scripted.shift();
    if (scripted !== undefined)
      return send(res, scripted.status, scripted.body ?? { message: `${scripted.status}` }, scripted.headers);
    const api = path.startsWith(`${this.prefix}/api/v4/`) ? path.slice(this.prefix.length + '/api/v4'.length) : null;
    const match = api === null ? null : /^\/projects\/([^/]+)\/merge_requests\/(\d+)$/.exec(api);
    // Unknown routes are 404 whoever asks; known ones need the token first, as on GitLab.
    if (req.method !== 'GET' || (api !== '/user' && match === null))
      return send(res, 404, { message: '404 Not Found' });
    if (!authorized) return send(res, 401, { message: '401 Unauthorized' });
    if (match === null) return send(res, 200, { ...fixture('user'), username: this.username });
    const mr = this.mrs.get(`${decodeURIComponent(match[1]!)}!${match[2]}`);
    if (mr === undefined) return send(res, 404, { message: '404 Not found' });
    const reviewers = mr.reviewers.map((username, i) => ({ ...fixture('reviewer'), id: 100 + i, username }));
    send(res, 200, { ...fixture('merge-request'), iid: Number(match[2]), state: mr.state, sha: mr.sha, reviewers });
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

export async function startGitlabServer(
  cleanup: Cleanup,
  options: { prefix?: string } = {},
): Promise<GitlabTestServer> {
  const holder: { gitlab?: GitlabTestServer } = {};
  const url = await listenOnLoopback(cleanup, (req, res) => holder.gitlab?.handle(req, res));
  const gitlab = new GitlabTestServer(url, options.prefix ?? '');
  holder.gitlab = gitlab;
  return gitlab;
}
