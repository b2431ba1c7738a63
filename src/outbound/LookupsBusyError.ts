/**
 * A host-name lookup that never got one of the process's lookup turns in time: the name was not
 * looked up at all, so nothing is known about it. Not the target's fault; try again shortly.
 */
export class LookupsBusyError extends Error {
  constructor() {
    super('Every host-name lookup turn of this process stayed taken; the name was not looked up.');
    this.name = 'LookupsBusyError';
  }
}
