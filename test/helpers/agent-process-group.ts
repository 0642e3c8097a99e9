// Process-group inspection for the no-orphans checks (Linux /proc). A zombie counts as gone: it runs
// nothing, it only waits for its (re)parent to reap it, which a container's init may never do.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  state: string;
  pgrp: number;
}

function procStat(pid: number): ProcStat | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is parenthesised and may contain spaces; the fields after it are fixed.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '?', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
}

/** True while `pid` is a process that can still run (not gone, not a zombie). */
export function isLiveProcess(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** Live processes whose process group is `pgid`. */
export function liveGroupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const stat = procStat(pid);
      return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z';
    });
}
