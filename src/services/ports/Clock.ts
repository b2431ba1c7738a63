/**
 * Where the service reads the current time. Wired once (the system clock in production); tests
 * hand in a clock they move, so no test waits for real time to pass.
 */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
