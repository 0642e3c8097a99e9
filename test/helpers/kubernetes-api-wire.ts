// The wire side of the loopback Kubernetes API server (kubernetes-api-server.ts): HTTPS on loopback
// with a test CA, Status errors, label selectors, request bodies, and the kubeconfig clients use.
import { readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Cleanup } from './cleanup';
import { serveOnLoopback } from './loopback-server';
import { createTestPki } from './tls-certs';

export type Watcher = { namespace: string; selector: Map<string, string>; res: ServerResponse };

export function status(res: ServerResponse, code: number, reason: string, message: string): void {
  const body = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, code };
  res.writeHead(code, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function parseSelector(text: string | null): Map<string, string> {
  const selector = new Map<string, string>();
  for (const term of (text ?? '').split(',').filter((t) => t.length > 0)) {
    const [key, value] = term.split(/==?/);
    selector.set(key ?? '', value ?? '');
  }
  return selector;
}

export function matches(labels: Record<string, string> | undefined, selector: Map<string, string>): boolean {
  return [...selector].every(([k, v]) => labels?.[k] === v);
}

export async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * HTTPS on 127.0.0.1 with a certificate from a test CA, as an API server has (the client library
 * refuses plain HTTP unless told to skip verification, which a test should not need).
 */
export async function listenHttps(cleanup: Cleanup, handler: RequestListener): Promise<{ url: string; ca: string }> {
  const pki = await createTestPki(cleanup);
  const server = createServer({ cert: readFileSync(pki.serverCert), key: readFileSync(pki.serverKey) }, handler);
  return { url: `https://127.0.0.1:${await serveOnLoopback(cleanup, server)}`, ca: pki.caCert };
}

/** A kubeconfig file (JSON is YAML) for the server, with `namespace` as the context's; returns its path. */
export function writeKubeconfig(path: string, url: string, ca: string, namespace: string): string {
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'loopback', cluster: { server: url, 'certificate-authority': ca } }],
    users: [{ name: 'loopback', user: { token: 'loopback-test-bearer' } }],
    contexts: [{ name: 'loopback', context: { cluster: 'loopback', user: 'loopback', namespace } }],
    'current-context': 'loopback',
  };
  writeFileSync(path, JSON.stringify(config), { mode: 0o600 });
  return path;
}
