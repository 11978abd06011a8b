/**
 * deploy/'s layout on one machine, every part the soak's own: a PostgreSQL server, a three-server
 * NATS cluster (R3), two control planes and several evaluators, and nginx in front of each kind
 * with deploy/nginx's configurations. Every part can be killed and brought back on its ports.
 */
import { type EnsignProcess, jsonClient, type JsonClient, startEnsign, testBucket } from '@ensign/testkit';
import { NatsCluster } from '../nats-cluster.js';
import { type Nginx, startNginx } from '../nginx.js';
import { createPrivatePostgres, type PrivatePostgres } from '../private-postgres.js';

/** One `ensign` process of the layout, with what it needs to be started again on its ports. */
interface Instance {
  name: string;
  command: 'server' | 'evaluator';
  env: Record<string, string>;
  process: EnsignProcess | undefined;
}

export class SoakCluster {
  private constructor(
    readonly postgres: PrivatePostgres,
    readonly nats: NatsCluster,
    readonly controlPlanes: Instance[],
    readonly evaluators: Instance[],
    private readonly nginx: Nginx,
  ) {}

  static async start(evaluatorCount: number): Promise<SoakCluster> {
    const postgres = await createPrivatePostgres();
    const nats = await NatsCluster.start();
    const names = nats.names();
    const bucket = testBucket('ensign_soak');
    // Each process lists every NATS server, starting from a different one, so they spread.
    const rotated = (i: number) => [...names.slice(i % names.length), ...names.slice(0, i % names.length)];
    const instance = (name: string, command: 'server' | 'evaluator', i: number, extra: Record<string, string> = {}): Instance => ({
      name,
      command,
      env: { ...bucket.env(nats.urls(rotated(i))), ENSIGN_NATS_REPLICAS: '3', ENSIGN_LOG_LEVEL: 'warn', ...extra },
      process: undefined,
    });
    const controlPlanes = [0, 1].map((i) => instance(`control-plane-${i + 1}`, 'server', i, { ENSIGN_DB_URL: postgres.url }));
    const evaluators = Array.from({ length: evaluatorCount }, (_, i) => instance(`evaluator-${i + 1}`, 'evaluator', i + 2));
    // Started together, as replicas are; the second control plane waits for the first's migration lock.
    await Promise.all(controlPlanes.map((cp) => SoakCluster.launch(cp)));
    await Promise.all(evaluators.map((ev) => SoakCluster.launch(ev)));
    const nginx = await startNginx({
      'control-plane.conf': controlPlanes.map((cp) => cp.process!.port),
      'evaluator.conf': evaluators.map((ev) => ev.process!.port),
    });
    return new SoakCluster(postgres, nats, controlPlanes, evaluators, nginx);
  }

  /** Starts `instance`, on the ports it had before if it ran already. */
  private static async launch(instance: Instance): Promise<void> {
    const process = await startEnsign({ command: instance.command, env: instance.env, startTimeoutMs: 120_000 });
    instance.env.ENSIGN_SERVER_HTTP_PORT = String(process.port);
    instance.env.ENSIGN_SERVER_GRPC_PORT = String(process.grpcPort);
    instance.process = process;
  }

  /** The control planes' load balancer. */
  get api(): JsonClient {
    return jsonClient(this.nginx.url('control-plane.conf'));
  }

  /** The evaluators' load balancer. */
  get evaluation(): JsonClient {
    return jsonClient(this.nginx.url('evaluator.conf'));
  }

  evaluationUrl(path: string): string {
    return `${this.nginx.url('evaluator.conf')}${path}`;
  }

  /** kill -9 of an ensign process. */
  async kill(instance: Instance): Promise<void> {
    await instance.process?.kill9();
    instance.process = undefined;
  }

  /** Starts a killed ensign process again on its ports. */
  restart(instance: Instance): Promise<void> {
    return SoakCluster.launch(instance);
  }

  async stop(): Promise<void> {
    await this.nginx.stop();
    await Promise.all([...this.controlPlanes, ...this.evaluators].map((i) => i.process?.stop()));
    await this.nats.stop();
    await this.postgres.remove();
  }
}

export type { Instance as SoakInstance };
