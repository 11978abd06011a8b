/**
 * The soak's faults, injected in turn: each kills (or stops) one part of the layout, leaves it down
 * for a while as a real failure would be, and brings it back on its ports.
 */
import type { Propagation } from './propagation.js';
import type { SoakCluster } from './soak-cluster.js';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export interface Fault {
  name: string;
  /** Injects the fault and heals it; resolves what was hit. */
  inject(cluster: SoakCluster, propagation: Propagation, round: number): Promise<string>;
}

/** How long a killed part stays down before it is started again. */
const DOWN_MS = 5_000;
/** How long a NATS server stays stopped (SIGSTOP): its peers and clients see it hang, not close. */
const STOPPED_MS = 10_000;

export const FAULTS: readonly Fault[] = [
  {
    name: "NATS server killed -9 (the bucket's stream leader, then the meta leader, in turn)",
    async inject(cluster, _propagation, round) {
      // The stream leader is the worst case for writes: the bucket takes none until another is elected.
      const stream = `KV_${cluster.controlPlanes[0]!.env.ENSIGN_NATS_BUCKET}`;
      const leader = round % 2 === 0 ? await cluster.nats.streamLeader(stream) : await cluster.nats.metaLeader();
      const victim = leader ?? cluster.nats.names()[0]!;
      await cluster.nats.kill(victim);
      await delay(DOWN_MS);
      await cluster.nats.restart(victim);
      return `${victim} (${round % 2 === 0 ? 'bucket leader' : 'meta leader'})`;
    },
  },
  {
    name: 'control plane killed -9',
    async inject(cluster, _propagation, round) {
      const victim = cluster.controlPlanes[round % cluster.controlPlanes.length]!;
      await cluster.kill(victim);
      await delay(DOWN_MS);
      await cluster.restart(victim);
      return victim.name;
    },
  },
  {
    name: 'PostgreSQL killed -9',
    async inject(cluster) {
      await cluster.postgres.kill9();
      await delay(DOWN_MS);
      await cluster.postgres.start();
      return 'postgres';
    },
  },
  {
    name: 'evaluator killed -9',
    async inject(cluster, propagation, round) {
      const victim = cluster.evaluators[round % cluster.evaluators.length]!;
      propagation.unwatch(victim.name);
      await cluster.kill(victim);
      await delay(DOWN_MS);
      await cluster.restart(victim);
      propagation.watch(victim.name, victim.process!.baseUrl);
      return victim.name;
    },
  },
  {
    name: 'NATS server stopped (SIGSTOP), then continued',
    async inject(cluster, _propagation, round) {
      const names = cluster.nats.names();
      const victim = names[round % names.length]!;
      cluster.nats.pause(victim);
      await delay(STOPPED_MS);
      cluster.nats.resume(victim);
      return victim;
    },
  },
];
