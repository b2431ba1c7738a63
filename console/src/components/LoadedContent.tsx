import type { ComponentChildren } from 'preact';
import type { HqApiError } from '../api/HqClient.js';
import type { Loaded } from '../useLoad.js';
import { Loading, Problem } from './Problem.js';

/**
 * What a page shows for one `useLoad` answer: the problem, a loading note until the first answer,
 * then the content. A reload keeps the content on screen instead of blinking back to the note.
 */
export function LoadedContent<T>({
  loaded,
  what,
  notServed,
  quietWhileLoading = false,
  children,
}: {
  readonly loaded: Loaded<T>;
  /** Names the data in the messages ("Could not load …", "Loading …"). */
  readonly what: string;
  /**
   * Said instead of an error when the route itself is missing (an older version of the service): a
   * 404 with no error body. A 404 the service explains (PARTNER_NOT_FOUND) is shown as a problem.
   */
  readonly notServed?: string;
  /** No loading note: for parts of a page whose heading already stands while they load. */
  readonly quietWhileLoading?: boolean;
  readonly children: (data: T) => ComponentChildren;
}) {
  const { data, error, loading } = loaded;
  return (
    <>
      {error &&
        (notServed !== undefined && isMissingRoute(error) ? <p class="muted">{notServed}</p> : <Problem error={error} what={what} />)}
      {!quietWhileLoading && loading && !data && <Loading what={what} />}
      {data && children(data)}
    </>
  );
}

/** The host's bare 404 for a route it does not have: no body, so no code of the service's. */
function isMissingRoute(error: HqApiError): boolean {
  return error.status === 404 && error.code === 'HTTP_404';
}
