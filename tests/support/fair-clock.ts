// Shared by the fair-to-the-end model tests (docs/product-rules.md#answer-windows, #void, #referee, #getting-paid): time is passed
// as `now`, hours at a time, and the sweep runs the jobs due by then.
import { JOB_HANDLERS } from "~/models/cross-domain/background-work.server";
import { listActivity } from "~/models/social/activity.server";
import { runDueJobs } from "~/models/jobs/jobs.server";
import { rawDb as sqlite } from "./raw-sql";

export const H = 3_600_000;
export const WINDOW = 72 * H;

export const sweep = async (now: number) =>
  runDueJobs({ handlers: JOB_HANDLERS, now });
export const kinds = async (userId: number) =>
  (await listActivity(userId)).map((e) => e.type);
export const count = async (sql: string, ...args: unknown[]) =>
  ((await sqlite.prepare(sql).get(...args)) as { n: number }).n;
