// What the health check asks of the database: that it answers a read.
import { sqlite } from "~/db/client.server";

export function databaseAnswers(): boolean {
  try {
    sqlite.prepare("SELECT 1").get();
    return true;
  } catch {
    return false;
  }
}
