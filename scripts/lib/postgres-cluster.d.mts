export type Cluster = {
  dir: string;
  port: number;
  adminUrl: string;
  pause(): void;
  resume(): void;
  kill(): void;
  promote(): void;
  stop(): void;
};
type Settings = Record<string, string | number>;
export function postgresBin(): string;
export function freePort(): Promise<number>;
export function startCluster(options?: {
  port?: number;
  settings?: Settings;
}): Promise<Cluster>;
export function createDatabase(
  adminUrl: string,
  name: string,
  options?: { template?: string },
): Promise<string>;
export function startStandby(
  primary: Cluster,
  options?: {
    port?: number;
    settings?: Settings;
    upstreamPort?: number;
    applicationName?: string;
  },
): Promise<Cluster>;
export function databaseUrlOn(server: Cluster, name: string): string;
