/**
 * One page of notes listed in key order. `next` is where the following page starts (after the key
 * of this page's last note); it is absent when the listing reached its end.
 */
export interface NotePage<N> {
  readonly notes: readonly N[];
  readonly next?: string;
}
