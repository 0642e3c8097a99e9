// The kubelet's part of the loopback Kubernetes API server (kubernetes-api-server.ts): start one pod's
// agentctl as a real child process, with the pod's volumes and env as a node would give them.
// - Network: the pod's IP is a loopback address of its own; `0.0.0.0` (its own namespace) becomes it.
// - Secret volumes: the Secret's `data` written to a per-pod directory with the volume's defaultMode.
//   PersistentVolumeClaims: a host directory per claim (the test names them), at the mount's subPath.
//   There are no mount namespaces: an env value that starts with a mount path is rewritten to the host
//   path (agentctl only reads files its env names).
// - Env: literal values with `$(VAR)` expansion of earlier variables, and `fieldRef: status.podIP`.
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { V1Pod } from '@kandev/backend/testing';
import { AGENTCTL_MAIN } from './processes';

export interface PodHost {
  /** Per-pod directory for its volumes. */
  dir: string;
  podIp: string;
  /** A Secret's `data` (base64 values), or undefined when it does not exist. */
  secretData(name: string): Record<string, string> | undefined;
  claims: Record<string, string>;
}

/** Undefined while a Secret the pod mounts does not exist (the kubelet waits for it). */
export function startPodProcess(pod: V1Pod, host: PodHost): ChildProcessByStdio<null, Readable, Readable> | undefined {
  const volumes = pod.spec?.volumes ?? [];
  if (volumes.some((v) => v.secret !== undefined && host.secretData(v.secret.secretName ?? '') === undefined)) {
    return undefined;
  }
  const hostPaths = new Map<string, string>();
  for (const volume of volumes) {
    if (volume.secret !== undefined) {
      const dir = join(host.dir, volume.name);
      mkdirSync(dir, { recursive: true });
      for (const [file, value] of Object.entries(host.secretData(volume.secret.secretName ?? '') ?? {})) {
        writeFileSync(join(dir, file), Buffer.from(value, 'base64'));
        chmodSync(join(dir, file), volume.secret.defaultMode ?? 0o644);
      }
      hostPaths.set(volume.name, dir);
    } else if (volume.persistentVolumeClaim !== undefined) {
      const claim = host.claims[volume.persistentVolumeClaim.claimName];
      hostPaths.set(volume.name, claim ?? join(host.dir, 'missing-claim'));
    }
  }
  const container = pod.spec?.containers[0];
  const mounts = (container?.volumeMounts ?? [])
    .map((m) => ({ at: m.mountPath, host: join(hostPaths.get(m.name) ?? host.dir, m.subPath ?? '') }))
    .sort((a, b) => b.at.length - a.at.length);
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const variable of container?.env ?? []) {
    const raw =
      variable.valueFrom?.fieldRef?.fieldPath === 'status.podIP'
        ? host.podIp
        : (variable.value ?? '').replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (whole, ref: string) => env[ref] ?? whole);
    const mount = mounts.find((m) => raw === m.at || raw.startsWith(`${m.at}/`));
    env[variable.name] = mount === undefined ? raw : mount.host + raw.slice(mount.at.length);
  }
  if (env.KANDEV_AGENTCTL_HOST === '0.0.0.0') env.KANDEV_AGENTCTL_HOST = host.podIp;
  return spawn(process.execPath, [AGENTCTL_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}
