export type Relay = {
  port: number;
  switchTo(port: number, options?: { cut?: boolean }): void;
  cutAll(): void;
  close(): Promise<void>;
};
export function startRelay(options: {
  to: number;
  delayMs?: () => number;
  port?: number;
}): Promise<Relay>;
