// A local HTTP server that answers like GitHub REST v3 for the routes the backend calls: GET /user,
// GET /repos/:o/:r/pulls/:n (requested_reviewers included), GET .../pulls/:n/reviews,
// GET .../commits/:sha/check-runs and PUT .../pulls/:n/merge. Like GitHub it sends an ETag with every
// 200 and answers a matching If-None-Match with 304 without spending the rate limit; every other
// authorized answer spends one and carries x-ratelimit-limit/-remaining/-reset. Tests change PRs,
// reviews and checks, spend the limit (403 + remaining 0), script answers and count requests.
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Cleanup } from './cleanup';
import { listenOnLoopback } from './loopback-server';

export const GITHUB_TOKEN = 'ghp_test-token-0123456789abcdefghij';
export const GITHUB_TEST_LOGIN = 'reviewer-bot';

export interface PullFixture {
  state: 'open' | 'closed';
  merged: boolean;
  mergeable: boolean | null;
  mergeable_state: string;
  sha: string;
  requested_reviewers: string[];
}

export interface ReviewFixture {
  login: string;
  state: 'APPROVED' | 'CHANGES_REQUESTED' | 'COMMENTED';
  commit_id: string;
}

export interface CheckFixture {
  name: string;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
}

export interface GithubRequest {
  method: string;
  path: string;
  authorized: boolean;
  /** Sent If-None-Match. */
  conditional: boolean;
  status: number;
}

interface Scripted {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export class GithubTestServer {
  readonly requests: GithubRequest[] = [];
  readonly limit = 5000;
  remaining = 5000;
  /** x-ratelimit-reset, epoch seconds. */
  resetAt = 0;
  login = GITHUB_TEST_LOGIN;
  /** Any non-blank token is valid (for tests that only need a token stored). */
  acceptAnyToken = false;
  private validToken = GITHUB_TOKEN;
  private readonly pulls = new Map<string, PullFixture>();
  private readonly reviews = new Map<string, ReviewFixture[]>();
  private readonly checks = new Map<string, CheckFixture[]>();
  private readonly scripted: Scripted[] = [];
  /** The next merges answer this (GitHub's 405 "not mergeable", 409 "head moved"). */
  mergeRefusal: { status: number; message: string } | null = null;

  constructor(readonly url: string) {}

  /** KANDEV_GITHUB_API_URL for the backend. */
  get apiUrl(): string {
    return this.url;
  }

  setPull(repo: string, number: number, pull: Partial<PullFixture>): void {
    const key = `${repo}#${number}`;
    const current = this.pulls.get(key) ?? {
      state: 'open',
      merged: false,
      mergeable: true,
      mergeable_state: 'clean',
      sha: '1'.repeat(40),
      requested_reviewers: [],
    };
    this.pulls.set(key, { ...current, ...pull });
  }

  setReviews(repo: string, number: number, reviews: ReviewFixture[]): void {
    this.reviews.set(`${repo}#${number}`, reviews);
  }

  setChecks(sha: string, checks: CheckFixture[]): void {
    this.checks.set(sha, checks);
  }

  script(...responses: Scripted[]): void {
    this.scripted.push(...responses);
  }

  revokeToken(): void {
    this.validToken = '';
  }

  /** Requests whose path starts with this (query ignored). */
  count(prefix: string, filter: Partial<GithubRequest> = {}): number {
    return this.requests.filter(
      (r) => r.path.startsWith(prefix) && Object.entries(filter).every(([k, v]) => r[k as keyof GithubRequest] === v),
    ).length;
  }

  handle(req: IncomingMessage, res: ServerResponse, body: string): void {
    const path = (req.url ?? '/').split('?')[0]!;
    const method = req.method ?? 'GET';
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice('Bearer '.length) : '';
    const authorized = this.acceptAnyToken ? token.trim() !== '' : this.validToken !== '' && token === this.validToken;
    const ifNoneMatch = req.headers['if-none-match'];
    const record = (status: number) =>
      this.requests.push({ method, path, authorized, conditional: ifNoneMatch !== undefined, status });
    const scripted = this.scripted.shift();
    if (scripted !== undefined) {
      record(scripted.status);
      return send(res, scripted.status, scripted.body ?? { message: `${scripted.status}` }, scripted.headers);
    }
    if (!authorized) {
      record(401);
      return send(res, 401, { message: 'Bad credentials' });
    }
    if (this.remaining <= 0) {
      record(403);
      return send(res, 403, { message: 'API rate limit exceeded' }, this.rateHeaders());
    }
    const answer = this.route(method, path, body);
    if (answer.status === 200 && method === 'GET') {
      const etag = `"${createHash('sha1').update(JSON.stringify(answer.body)).digest('hex')}"`;
      if (ifNoneMatch === etag) {
        record(304); // a 304 does not count against the rate limit, as on GitHub
        res.writeHead(304, { etag, ...this.rateHeaders() });
        return void res.end();
      }
      this.remaining -= 1;
      record(200);
      return send(res, 200, answer.body, { etag, ...this.rateHeaders() });
    }
    this.remaining -= 1;
    record(answer.status);
    send(res, answer.status, answer.body, this.rateHeaders());
  }

  private rateHeaders(): Record<string, string> {
    return {
      'x-ratelimit-limit': String(this.limit),
      'x-ratelimit-remaining': String(Math.max(0, this.remaining)),
      'x-ratelimit-reset': String(this.resetAt),
    };
  }

  private route(method: string, path: string, body: string): { status: number; body: unknown } {
    if (method === 'GET' && path === '/user') return { status: 200, body: { login: this.login, id: 4242 } };
    const pr = /^\/repos\/([^/]+)\/([^/]+)\/pulls\/(\d+)(\/reviews|\/merge)?$/.exec(path);
    if (pr !== null) {
      const key = `${decodeURIComponent(pr[1]!)}/${decodeURIComponent(pr[2]!)}#${pr[3]}`;
      const pull = this.pulls.get(key);
      if (pull === undefined) return { status: 404, body: { message: 'Not Found' } };
      if (pr[4] === '/merge' && method === 'PUT') return this.merge(pull, body);
      if (method !== 'GET') return { status: 404, body: { message: 'Not Found' } };
      if (pr[4] === '/reviews')
        return {
          status: 200,
          body: (this.reviews.get(key) ?? []).map((r, i) => ({
            id: i + 1,
            user: { login: r.login, id: 100 + i },
            state: r.state,
            commit_id: r.commit_id,
          })),
        };
      return { status: 200, body: pullBody(Number(pr[3]), pull) };
    }
    const runs = /^\/repos\/[^/]+\/[^/]+\/commits\/([^/]+)\/check-runs$/.exec(path);
    if (runs !== null && method === 'GET') {
      const list = this.checks.get(decodeURIComponent(runs[1]!)) ?? [];
      return {
        status: 200,
        body: { total_count: list.length, check_runs: list.map((c, i) => ({ id: i + 1, head_sha: runs[1], ...c })) },
      };
    }
    return { status: 404, body: { message: 'Not Found' } };
  }

  private merge(pull: PullFixture, body: string): { status: number; body: unknown } {
    if (this.mergeRefusal !== null)
      return { status: this.mergeRefusal.status, body: { message: this.mergeRefusal.message } };
    const { sha } = JSON.parse(body === '' ? '{}' : body) as { sha?: string };
    if (sha !== undefined && sha !== pull.sha)
      return { status: 409, body: { message: 'Head branch was modified. Review and try the merge again.' } };
    if (pull.state !== 'open' || pull.mergeable !== true)
      return { status: 405, body: { message: 'Pull Request is not mergeable' } };
    pull.merged = true;
    pull.state = 'closed';
    return { status: 200, body: { sha: 'f'.repeat(40), merged: true, message: 'Pull Request successfully merged' } };
  }
}

function pullBody(number: number, pull: PullFixture) {
  return {
    url: `https://api.github.com/repos/x/y/pulls/${number}`,
    number,
    state: pull.state,
    title: 'Fixture pull request',
    merged: pull.merged,
    merged_at: pull.merged ? '2026-11-30T10:00:00Z' : null,
    mergeable: pull.mergeable,
    mergeable_state: pull.mergeable_state,
    head: { ref: 'feature', sha: pull.sha },
    base: { ref: 'main', sha: '0'.repeat(40) },
    requested_reviewers: pull.requested_reviewers.map((login, i) => ({ login, id: 200 + i, type: 'User' })),
    requested_teams: [],
  };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export async function startGithubServer(cleanup: Cleanup): Promise<GithubTestServer> {
  const holder: { github?: GithubTestServer } = {};
  const url = await listenOnLoopback(cleanup, (req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => holder.github?.handle(req, res, body));
  });
  const github = new GithubTestServer(url);
  holder.github = github;
  return github;
}

/**
 * For a backend process that stores GitHub tokens (each is verified with GET /user): a test server
 * that takes any token and answers with `login`, and the env that points the backend at it.
 */
export async function githubForBackend(
  cleanup: Cleanup,
  login = GITHUB_TEST_LOGIN,
): Promise<{ github: GithubTestServer; env: { KANDEV_GITHUB_API_URL: string } }> {
  const github = await startGithubServer(cleanup);
  github.acceptAnyToken = true;
  github.login = login;
  return { github, env: { KANDEV_GITHUB_API_URL: github.apiUrl } };
}
