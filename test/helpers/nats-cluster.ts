/**
 * A three-server NATS cluster with JetStream of one test only: its own client, route and monitoring
 * ports on loopback, its own store directories, and servers that can be killed and brought back.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort, scratchDir } from '@ensign/testkit';
import { connect, type NatsConnection } from 'nats';

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Member {
  name: string;
  port: number;
  routePort: number;
  monitorPort: number;
  storeDir: string;
  child?: ChildProcess;
  exited?: Promise<void>;
  output: string[];
}

/** Whether the server's `/healthz` says its JetStream is current (meta leader known, assets caught up). */
async function healthy(member: Member): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${member.monitorPort}/healthz`, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export class NatsCluster {
  private constructor(private readonly members: Member[]) {}

  /** Starts three servers routed to each other and waits until JetStream has a meta leader. */
  static async start(): Promise<NatsCluster> {
    const root = scratchDir('ensign-nats-cluster-');
    const members: Member[] = [];
    for (const name of ['n1', 'n2', 'n3']) {
      members.push({ name, port: await freePort(), routePort: await freePort(), monitorPort: await freePort(), storeDir: join(root, name), output: [] });
    }
    const cluster = new NatsCluster(members);
    for (const member of members) cluster.spawn(member);
    await cluster.waitHealthy(members.map((m) => m.name), 30_000);
    return cluster;
  }

  /** The client URL of each server, by name. */
  url(name: string): string {
    return `nats://127.0.0.1:${this.member(name).port}`;
  }

  /** Every server's client URL, comma-separated, as `nats.url` takes them. */
  urls(names = this.members.map((m) => m.name)): string {
    return names.map((name) => this.url(name)).join(',');
  }

  names(): string[] {
    return this.members.map((m) => m.name);
  }

  /** A client connection to the servers that are up. */
  connect(): Promise<NatsConnection> {
    return connect({ servers: this.members.map((m) => this.url(m.name)), timeout: 5000, maxReconnectAttempts: -1, reconnectTimeWait: 250 });
  }

  /** The server leading JetStream's meta group, as a running server sees it. */
  async metaLeader(): Promise<string | undefined> {
    for (const member of this.members) {
      if (member.child === undefined) continue;
      try {
        const jsz = (await (await fetch(`http://127.0.0.1:${member.monitorPort}/jsz`, { signal: AbortSignal.timeout(1000) })).json()) as { meta_cluster?: { leader?: string } };
        if (jsz.meta_cluster?.leader) return jsz.meta_cluster.leader;
      } catch {
        // this server may be on its way down; ask the next
      }
    }
    return undefined;
  }

  /** The server leading a stream's replicas. */
  async streamLeader(stream: string): Promise<string | undefined> {
    const nc = await this.connect();
    try {
      return (await (await nc.jetstreamManager()).streams.info(stream)).cluster?.leader;
    } finally {
      await nc.close();
    }
  }

  /**
   * Waits until each stream has a leader and every replica is current: a server brought back has
   * caught up. (nats-server 2.9 may leave a stream without a leader for long when its leader dies
   * while another replica is still catching up, as a cluster losing two servers at once would.)
   */
  async waitCaughtUp(streams: string[], timeoutMs = 30_000): Promise<void> {
    const nc = await this.connect();
    try {
      const jsm = await nc.jetstreamManager();
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const infos = await Promise.all(streams.map((stream) => jsm.streams.info(stream).catch(() => undefined)));
        const current = infos.every((info) => {
          const replicas = info?.cluster?.replicas ?? [];
          return info?.cluster?.leader !== undefined && replicas.length === this.members.length - 1 && replicas.every((r) => r.current && !r.offline && !(r.lag > 0));
        });
        if (current) return;
        if (Date.now() > deadline) throw new Error(`streams ${streams.join(', ')} not caught up within ${timeoutMs} ms: ${JSON.stringify(infos.map((i) => i?.cluster))}`);
        await delay(200);
      }
    } finally {
      await nc.close();
    }
  }

  /** kill -9: no goodbye to the clients or the other servers. */
  async kill(name: string): Promise<void> {
    const member = this.member(name);
    member.child?.kill('SIGKILL');
    await member.exited;
    delete member.child;
  }

  /** Brings a killed server back on its ports and store, and waits until it is current again. */
  async restart(name: string): Promise<void> {
    this.spawn(this.member(name));
    await this.waitHealthy([name], 30_000);
  }

  /** SIGSTOP: the server hangs with its connections open, as a partitioned node looks to its peers and clients. */
  pause(name: string): void {
    this.member(name).child?.kill('SIGSTOP');
  }

  /** SIGCONT: a paused server goes on where it stopped. */
  resume(name: string): void {
    this.member(name).child?.kill('SIGCONT');
  }

  /** Whether every running server reports JetStream current. */
  async allHealthy(): Promise<boolean> {
    const running = this.members.filter((m) => m.child !== undefined);
    return (await Promise.all(running.map(healthy))).every(Boolean);
  }

  /** What a server wrote, for failure messages. */
  logs(name: string): string {
    return this.member(name).output.join('');
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => this.kill(m.name)));
  }

  private member(name: string): Member {
    const member = this.members.find((m) => m.name === name);
    if (member === undefined) throw new Error(`no server ${name}`);
    return member;
  }

  private spawn(member: Member): void {
    const routes = this.members.map((m) => `nats://127.0.0.1:${m.routePort}`).join(',');
    const args = ['-a', '127.0.0.1', '-p', String(member.port), '-m', String(member.monitorPort), '-n', member.name];
    args.push('--cluster_name', 'ensign-test', '--cluster', `nats://127.0.0.1:${member.routePort}`, '--routes', routes, '-js', '-sd', member.storeDir);
    const child = spawn(NATS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => member.output.push(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => member.output.push(chunk));
    member.child = child;
    member.exited = new Promise((resolve) => child.once('close', () => resolve()));
  }

  private async waitHealthy(names: string[], timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(names.map((name) => healthy(this.member(name))));
      if (states.every(Boolean) && (await this.metaLeader()) !== undefined) return;
      if (Date.now() > deadline) throw new Error(`NATS servers ${names.join(', ')} not current within ${timeoutMs} ms:\n${names.map((n) => this.logs(n)).join('\n')}`);
      await delay(100);
    }
  }
}
