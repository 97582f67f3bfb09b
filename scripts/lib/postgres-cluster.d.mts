export type Cluster = {
  dir: string;
  port: number;
  adminUrl: string;
  pause(): void;
  resume(): void;
  stop(): void;
};
export function postgresBin(): string;
export function freePort(): Promise<number>;
export function startCluster(options?: { port?: number }): Promise<Cluster>;
export function createDatabase(
  adminUrl: string,
  name: string,
  options?: { template?: string },
): Promise<string>;
export function startStandby(
  primary: Cluster,
  options?: { port?: number },
): Promise<Cluster>;
export function databaseUrlOn(server: Cluster, name: string): string;
