import { setTimeout as delay } from 'node:timers/promises';
import type { V1Pod } from '@kubernetes/client-node';
import type { Logger } from '../../../platform/logger/logger';
import type { KubernetesApi } from './kubernetes-api';

export interface PodWatchOptions {
  api: KubernetesApi;
  labelSelector: string;
  /** A pod changed or (`deleted`) is gone. */
  onPod(deleted: boolean, pod: V1Pod): void;
  /** The pods to check again after a gap in the watch. */
  watched(): string[];
  logger: Logger;
}

/**
 * One watch over an executor's pods. The API server ends watches now and then (timeouts, a dropped
 * connection): it watches again after a pause, then reads each watched pod once, so a pod that ended
 * or vanished in the gap is still reported.
 */
export class PodWatch {
  private current: { stop(): void } | undefined;
  private stopped = false;

  constructor(private readonly options: PodWatchOptions) {}

  async ensure(): Promise<void> {
    if (this.current !== undefined || this.stopped) return;
    this.current = { stop: () => undefined };
    try {
      this.current = await this.options.api.watchPods(
        this.options.labelSelector,
        (type, pod) => this.options.onPod(type === 'DELETED', pod),
        () => this.again(),
      );
    } catch (err) {
      this.options.logger.warn({ err: err instanceof Error ? err.message : String(err) }, 'pod watch failed');
      this.again();
    }
  }

  stop(): void {
    this.stopped = true;
    this.current?.stop();
  }

  private again(): void {
    this.current = undefined;
    if (this.stopped) return;
    void delay(1_000, undefined, { ref: false })
      .then(() => this.ensure())
      .then(() => this.resync());
  }

  private async resync(): Promise<void> {
    for (const name of this.options.watched()) {
      const pod = await this.options.api.readPod(name).catch(() => null);
      if (pod === undefined) this.options.onPod(true, { metadata: { name } });
      else if (pod !== null) this.options.onPod(false, pod);
    }
  }
}
