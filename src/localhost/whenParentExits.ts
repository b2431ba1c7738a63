/** How often the parent is looked at: a stopped launcher is noticed within this time. */
const checkEveryMs = 1_000;

/**
 * Calls `onExit` once the process `parent` (this one's parent when it started) has gone.
 *
 * `npm start` runs the service under `sh -c`, which does not pass a SIGTERM on: a supervisor that
 * signals npm alone (as `kill <pid>` or `timeout` do) ends npm and the shell, and the service
 * would keep running with its emulator. On POSIX an orphan is handed to another parent, so its
 * parent id changes; that is what this watches. On Windows a process keeps the parent id it
 * started with, and this never fires.
 */
export function whenParentExits(parent: number, onExit: () => void): void {
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onExit();
  }, checkEveryMs);
  // Watching alone does not keep the process running.
  timer.unref();
}
