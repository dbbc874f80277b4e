import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

/** The pid and its descendants (the server, and anything it starts). */
export function processTree(pid: number): number[] {
  let children: number[] = [];
  try {
    children = execFileSync("ps", ["--ppid", String(pid), "-o", "pid="], { encoding: "utf8" })
      .split("\n")
      .map(Number)
      .filter(Boolean);
  } catch {
    // ps exits 1 when there are no children
  }
  return [pid, ...children.flatMap(processTree)];
}

/** Resident memory of each process of the tree, in MB: its peak (VmHWM) and now (VmRSS). */
export function memoryOf(pid: number): { pid: number; mb: number; rssMb: number; command: string }[] {
  return processTree(pid).flatMap((p) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, "utf8");
      const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
      const command = readFileSync(`/proc/${p}/cmdline`, "utf8").split("\0").slice(0, 3).join(" ");
      return [{ pid: p, mb: kb("VmHWM") / 1024, rssMb: kb("VmRSS") / 1024, command }];
    } catch {
      return [];
    }
  });
}

/** The peak resident memory of the server process tree (the largest process), in MB. */
export const peakMb = (pid: number) => Math.max(...memoryOf(pid).map((m) => m.mb));

/** CPU time (user + system) a process has used so far, in ms (0 once it is gone). */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime in clock ticks (USER_HZ 100)
  } catch {
    return 0;
  }
}
