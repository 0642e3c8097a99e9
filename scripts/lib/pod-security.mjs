// The Pod Security Standards' `restricted` profile (which includes `baseline`), as the API server's
// admission applies it to a namespace labelled pod-security.kubernetes.io/enforce: restricted, over
// plain objects: a Pod, or any workload with a pod template. Plus what deploy/kubernetes promises on
// top: every container has CPU and memory requests and limits. Each problem is one line naming the
// object, the container and the field.

/** Kinds whose pod spec sits at spec.template.spec (CronJob one level deeper). */
const TEMPLATE_KINDS = new Set([
  'Deployment',
  'StatefulSet',
  'DaemonSet',
  'ReplicaSet',
  'Job',
  'ReplicationController',
]);

/** The pod spec an object declares or makes, or undefined for kinds that run no pod. */
export function podSpecOf(object) {
  if (object?.kind === 'Pod') return object.spec;
  if (TEMPLATE_KINDS.has(object?.kind)) return object.spec?.template?.spec;
  if (object?.kind === 'CronJob') return object.spec?.jobTemplate?.spec?.template?.spec;
  return undefined;
}

// restricted: only these volume types.
const ALLOWED_VOLUMES = new Set([
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'persistentVolumeClaim',
  'projected',
  'secret',
]);
// baseline: sysctls outside this set are refused.
const SAFE_SYSCTLS = new Set([
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.ip_unprivileged_port_start',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_local_reserved_ports',
  'net.ipv4.tcp_keepalive_time',
  'net.ipv4.tcp_fin_timeout',
  'net.ipv4.tcp_keepalive_intvl',
  'net.ipv4.tcp_keepalive_probes',
]);
const SECCOMP_OK = new Set(['RuntimeDefault', 'Localhost']);
const SELINUX_TYPES = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t', 'container_engine_t']);

/** Every container of a pod spec, with where it sits. */
function containersOf(spec) {
  return [
    ...(spec.initContainers ?? []).map((c) => ['initContainers', c]),
    ...(spec.containers ?? []).map((c) => ['containers', c]),
    ...(spec.ephemeralContainers ?? []).map((c) => ['ephemeralContainers', c]),
  ];
}

/** The restricted profile's violations in one pod spec, each prefixed with `where`. */
export function podSecurityProblems(spec, where) {
  const problems = [];
  const fail = (field, why) => problems.push(`${where}: ${field}: ${why}`);
  const pod = spec.securityContext ?? {};
  for (const host of ['hostNetwork', 'hostPID', 'hostIPC']) if (spec[host] === true) fail(host, 'must not be true');
  for (const volume of spec.volumes ?? []) {
    const type = Object.keys(volume).find((key) => key !== 'name');
    if (!ALLOWED_VOLUMES.has(type)) fail(`volumes.${volume.name}`, `volume type ${type} is not allowed`);
  }
  for (const sysctl of pod.sysctls ?? []) {
    if (!SAFE_SYSCTLS.has(sysctl.name)) fail('securityContext.sysctls', `${sysctl.name} is not a safe sysctl`);
  }
  if (pod.runAsUser === 0) fail('securityContext.runAsUser', 'must not be 0');
  if (pod.seccompProfile !== undefined && !SECCOMP_OK.has(pod.seccompProfile.type)) {
    fail('securityContext.seccompProfile.type', 'must be RuntimeDefault or Localhost');
  }
  seLinuxProblems(pod.seLinuxOptions, 'securityContext.seLinuxOptions', fail);
  appArmorProblems(pod.appArmorProfile, 'securityContext.appArmorProfile', fail);
  for (const [list, container] of containersOf(spec)) {
    const at = `${list}.${container.name}`;
    const sc = container.securityContext ?? {};
    if (sc.privileged === true) fail(`${at}.securityContext.privileged`, 'must not be true');
    if (sc.allowPrivilegeEscalation !== false) fail(`${at}.securityContext.allowPrivilegeEscalation`, 'must be false');
    const nonRoot = sc.runAsNonRoot ?? pod.runAsNonRoot;
    if (nonRoot !== true) fail(`${at}.securityContext.runAsNonRoot`, 'must be true (on the container or the pod)');
    if (sc.runAsUser === 0) fail(`${at}.securityContext.runAsUser`, 'must not be 0');
    const seccomp = sc.seccompProfile?.type ?? pod.seccompProfile?.type;
    if (!SECCOMP_OK.has(seccomp)) {
      fail(
        `${at}.securityContext.seccompProfile.type`,
        'must be RuntimeDefault or Localhost (on the container or the pod)',
      );
    }
    if (!(sc.capabilities?.drop ?? []).includes('ALL'))
      fail(`${at}.securityContext.capabilities.drop`, 'must include ALL');
    for (const added of sc.capabilities?.add ?? []) {
      if (added !== 'NET_BIND_SERVICE') fail(`${at}.securityContext.capabilities.add`, `${added} is not allowed`);
    }
    if (sc.procMount !== undefined && sc.procMount !== 'Default')
      fail(`${at}.securityContext.procMount`, 'must be Default');
    seLinuxProblems(sc.seLinuxOptions, `${at}.securityContext.seLinuxOptions`, fail);
    appArmorProblems(sc.appArmorProfile, `${at}.securityContext.appArmorProfile`, fail);
    for (const port of container.ports ?? []) {
      if ((port.hostPort ?? 0) !== 0)
        fail(`${at}.ports.${port.name ?? port.containerPort}.hostPort`, 'must not be set');
    }
  }
  return problems;
}

/** Not PSS: every container (ephemeral ones excepted: they take no resources) requests and is limited. */
export function resourceProblems(spec, where) {
  const problems = [];
  for (const [list, container] of containersOf(spec)) {
    if (list === 'ephemeralContainers') continue;
    for (const section of ['requests', 'limits']) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[section]?.[resource] === undefined) {
          problems.push(`${where}: ${list}.${container.name}.resources.${section}.${resource}: must be set`);
        }
      }
    }
  }
  return problems;
}

function seLinuxProblems(options, field, fail) {
  if (options === undefined) return;
  if (!SELINUX_TYPES.has(options.type ?? '')) fail(`${field}.type`, `${options.type} is not allowed`);
  if (options.user !== undefined) fail(`${field}.user`, 'must not be set');
  if (options.role !== undefined) fail(`${field}.role`, 'must not be set');
}

function appArmorProblems(profile, field, fail) {
  if (profile !== undefined && !SECCOMP_OK.has(profile.type))
    fail(`${field}.type`, 'must be RuntimeDefault or Localhost');
}

/** Every problem of `objects` (each one a Kubernetes object): PSS restricted and resources, per pod spec. */
export function workloadProblems(objects) {
  const problems = [];
  for (const object of objects) {
    const spec = podSpecOf(object);
    if (spec === undefined) continue;
    const where = `${object.kind}/${object.metadata?.name ?? '?'}`;
    problems.push(...podSecurityProblems(spec, where), ...resourceProblems(spec, where));
  }
  return problems;
}

/** The namespaces among `objects` that do not enforce the restricted profile. */
export function namespaceProblems(objects) {
  return objects
    .filter(
      (o) => o.kind === 'Namespace' && o.metadata?.labels?.['pod-security.kubernetes.io/enforce'] !== 'restricted',
    )
    .map((o) => `Namespace/${o.metadata?.name}: label pod-security.kubernetes.io/enforce must be restricted`);
}
