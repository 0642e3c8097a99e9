import { ExecutorConfigError, parseExecutorsConfig } from '../executor-config';

const noFiles = (path: string): string => {
  throw new Error(`unexpected read of ${path}`);
};

function parse(profile: Record<string, unknown>) {
  return parseExecutorsConfig({ KANDEV_EXECUTOR_PROFILES: JSON.stringify({ cluster: profile }) }, noFiles);
}

function refusal(profile: Record<string, unknown>): string[] {
  try {
    parse(profile);
  } catch (error) {
    if (error instanceof ExecutorConfigError) return error.variables;
    throw error;
  }
  throw new Error('expected an ExecutorConfigError');
}

describe('kubernetes executor profiles', () => {
  test('defaults: namespace default, ports 7421/7422, the docker image, no claim; insecure declared', () => {
    const entry = parse({ kind: 'kubernetes', insecure: true }).entries.find((e) => e.name === 'cluster');
    expect(entry).toMatchObject({
      kind: 'kubernetes',
      image: 'kandev/agentctl:dev',
      namespace: 'default',
      grpcPort: 7421,
      mcpPort: 7422,
      backendId: undefined,
      workspacesClaim: undefined,
      startTimeoutMs: 120_000,
      tls: undefined,
    });
  });

  test('every field is carried over', () => {
    const entry = parse({
      kind: 'kubernetes',
      insecure: true,
      image: 'registry.example/kandev/agentctl:1',
      namespace: 'kandev',
      service_account: 'kandev-agentctl',
      backend_id: 'kandev',
      grpc_port: 9000,
      mcp_port: 9001,
      workspaces_claim: 'kandev-workspaces',
      resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2' } },
      image_pull_policy: 'IfNotPresent',
      node_selector: { pool: 'agents' },
      run_as_user: 999,
      run_as_group: 999,
      start_timeout_ms: 5_000,
    }).entries.find((e) => e.name === 'cluster');
    expect(entry).toMatchObject({
      namespace: 'kandev',
      serviceAccount: 'kandev-agentctl',
      backendId: 'kandev',
      grpcPort: 9000,
      workspacesClaim: 'kandev-workspaces',
      resources: { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2' } },
      nodeSelector: { pool: 'agents' },
      runAsUser: 999,
      startTimeoutMs: 5_000,
    });
  });

  test.each([
    [
      'no TLS and no insecure',
      {},
      ['KANDEV_EXECUTOR_PROFILES.cluster.tls (or KANDEV_EXECUTOR_PROFILES.cluster.insecure: true)'],
    ],
    [
      'a namespace that is no DNS name',
      { insecure: true, namespace: 'Kandev_NS' },
      ['KANDEV_EXECUTOR_PROFILES.cluster.namespace'],
    ],
    [
      'a backend id that is no label value',
      { insecure: true, backend_id: 'a b' },
      ['KANDEV_EXECUTOR_PROFILES.cluster.backend_id'],
    ],
    ['port 0', { insecure: true, grpc_port: 0 }, ['KANDEV_EXECUTOR_PROFILES.cluster.grpc_port']],
    [
      'the same port twice',
      { insecure: true, grpc_port: 9000, mcp_port: 9000 },
      ['KANDEV_EXECUTOR_PROFILES.cluster.grpc_port and KANDEV_EXECUTOR_PROFILES.cluster.mcp_port (must differ)'],
    ],
    [
      'a quantity that is not one',
      { insecure: true, resources: { limits: { cpu: 'lots' } } },
      ['KANDEV_EXECUTOR_PROFILES.cluster.resources.limits.cpu'],
    ],
    ['an unknown field', { insecure: true, replicas: 2 }, ['KANDEV_EXECUTOR_PROFILES.cluster']],
    // Pod Security `restricted` refuses root pods: refused at start, not at the first launch.
    ['root', { insecure: true, run_as_user: 0 }, ['KANDEV_EXECUTOR_PROFILES.cluster.run_as_user']],
  ])('refused, naming the field: %s', (_name, fields, expected) => {
    expect(refusal({ kind: 'kubernetes', ...fields })).toEqual(expected);
  });

  test('TLS and insecure together are refused', () => {
    const tls = { ca: '/ca.pem', agentctl_cert: '/a.pem', agentctl_key: '/a-key.pem' };
    expect(refusal({ kind: 'kubernetes', insecure: true, tls })).toEqual([
      'KANDEV_EXECUTOR_PROFILES.cluster.tls and KANDEV_EXECUTOR_PROFILES.cluster.insecure (not both)',
    ]);
  });
});
