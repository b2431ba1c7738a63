/**
 * Memory of a Flex Consumption instance (`instanceMemoryMB` in infra/main.bicep; a test keeps the
 * two equal).
 */
export const instanceMemoryMb = 2048;

/**
 * Node flags that size V8's heap as Node sizes it by itself on a machine (or in a memory cgroup)
 * of {@link instanceMemoryMb}. Node hands the memory it sees to V8, which on 64-bit takes half of
 * it as the old generation's limit and 1/128 of that as a semi-space. The limit also sets how far
 * V8 lets the old generation grow before collecting it: up to 4 times what is live with a limit
 * of 2,048 MB or more (this machine's 24 GiB gives 4,096), 1.3 to 2 times below that. So a peak
 * measured here with the machine's own sizing is the one of a process that sees far more memory
 * than an instance has; with these flags it is the one of a process that sees the instance's.
 * Node 20 and 22 chose this heap by themselves in a 2,048 MB memory cgroup on this machine
 * (bench/ROUNDS.md, round 15).
 */
export const instanceHeapFlags: readonly string[] = ['--max-old-space-size=1024', '--max-semi-space-size=8'];
