// What a server costs, read from /proc: CPU time and resident memory of a
// process and every process under it (a launcher's workers, say). Linux only,
// as the bench is.
import { spawnSync } from "node:child_process";
import fs from "node:fs";

const CLK_TCK = Number(spawnSync("getconf", ["CLK_TCK"]).stdout) || 100;

function processTree(pid) {
  const pids = [pid];
  for (let i = 0; i < pids.length; i++) {
    let tasks;
    try {
      tasks = fs.readdirSync(`/proc/${pids[i]}/task`);
    } catch {
      continue;
    }
    for (const tid of tasks) {
      try {
        const kids = fs.readFileSync(
          `/proc/${pids[i]}/task/${tid}/children`,
          "utf8",
        );
        for (const k of kids.trim().split(/\s+/).filter(Boolean))
          pids.push(Number(k));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return pids;
}

/** utime + stime of the process tree, in milliseconds. */
export function cpuMs(pid) {
  let ticks = 0;
  for (const p of processTree(pid)) {
    try {
      const stat = fs.readFileSync(`/proc/${p}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // ended meanwhile
    }
  }
  return (ticks * 1000) / CLK_TCK;
}

/** Resident memory of the process tree, in bytes. */
export function rssBytes(pid) {
  let kbs = 0;
  for (const p of processTree(pid)) {
    try {
      const status = fs.readFileSync(`/proc/${p}/status`, "utf8");
      kbs += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return kbs * 1024;
}
