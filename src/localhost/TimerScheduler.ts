/**
 * Calls `callback` once `ms` milliseconds have passed and returns a function that cancels the call.
 * The timer runner takes one (with a Clock) so that its tests move time themselves.
 */
export type TimerScheduler = (callback: () => void, ms: number) => () => void;

/** Node's timers, unref'd: a pending timer alone does not keep the process running. */
export const systemTimerScheduler: TimerScheduler = (callback, ms) => {
  const timer = setTimeout(callback, ms);
  timer.unref();
  return () => {
    clearTimeout(timer);
  };
};
