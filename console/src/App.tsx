import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { HqApiError, HqClient, unauthorizedEvent } from './api/HqClient.js';
import type { WhoAmI } from './api/hqTypes.js';
import { pageTitle } from './pageTitle.js';
import { parseRoute, type Route } from './route.js';
import { clearOperatorKey, readOperatorKey, saveOperatorKey } from './session/operatorKey.js';
import { SessionContext, type Session } from './session/Session.js';
import { StatusContext } from './session/StatusMessage.js';
import { DayView } from './views/DayView.js';
import { GridView } from './views/GridView.js';
import { OperationsView } from './views/OperationsView.js';
import { PartnerView } from './views/PartnerView.js';
import { SalesView } from './views/SalesView.js';
import { SignIn } from './views/SignIn.js';
import { UnmappedView } from './views/UnmappedView.js';

const navigation: readonly { view: Route['view']; href: string; label: string }[] = [
  { view: 'grid', href: '#/grid', label: 'Reconciliation' },
  { view: 'sales', href: '#/sales', label: 'Sales' },
  { view: 'unmapped', href: '#/unmapped', label: 'Unmapped codes' },
  { view: 'operations', href: '#/operations', label: 'Operations' },
];

export function App() {
  const [session, setSession] = useState<Session | undefined>();
  const [checking, setChecking] = useState(() => readOperatorKey() !== undefined);
  const [message, setMessage] = useState<string | undefined>();
  const [status, setStatus] = useState('');
  const [hash, setHash] = useState(window.location.hash);
  const route = useMemo(() => parseRoute(hash), [hash]);
  const main = useRef<HTMLElement>(null);
  // The page shown, without its filters (a new filter keeps the page); undefined while signing in.
  const page = checking ? undefined : session ? pageOf(route) : 'sign-in';
  const title = pageTitle(session ? route : undefined);
  const firstPage = useRef(true);

  useEffect(() => {
    const onHash = () => {
      setHash(window.location.hash);
    };
    window.addEventListener('hashchange', onHash);
    return () => {
      window.removeEventListener('hashchange', onHash);
    };
  }, []);

  const signIn = async (key: string): Promise<void> => {
    const client = new HqClient(key);
    try {
      const me = await client.get<WhoAmI>('whoami');
      saveOperatorKey(key);
      setMessage(undefined);
      setSession({ client, me, isAdmin: me.role === 'admin' });
    } catch (error) {
      clearOperatorKey();
      setSession(undefined);
      setMessage(signInProblem(error));
    } finally {
      setChecking(false);
    }
  };

  const signOut = (why?: string) => {
    clearOperatorKey();
    setSession(undefined);
    setMessage(why);
  };

  // A key kept from earlier in this tab (a reload) signs in again without asking.
  useEffect(() => {
    const kept = readOperatorKey();
    if (kept !== undefined) void signIn(kept);
  }, []);

  // A key revoked or expired while the page is open: back to the sign-in form.
  useEffect(() => {
    const onRefused = () => {
      signOut('The key was refused (revoked or expired); sign in again.');
    };
    window.addEventListener(unauthorizedEvent, onRefused);
    return () => {
      window.removeEventListener(unauthorizedEvent, onRefused);
    };
  }, []);

  useEffect(() => {
    document.title = title;
  }, [title]);

  // A new page replaces the element that had the focus, which would drop it to <body>: a keyboard
  // or screen reader user starts again at the new page's heading instead of the top of the document.
  // (Every page's h1 has tabindex -1 for this.) The first page after loading keeps the browser's own
  // start, the skip link first.
  useEffect(() => {
    if (page === undefined) return;
    if (firstPage.current) {
      firstPage.current = false;
      return;
    }
    document.querySelector<HTMLElement>('h1')?.focus();
  }, [page]);

  // The status region is rendered first and empty on every page, signed in or not, so that a screen
  // reader is watching it before anything is written into it (see StatusMessage.ts).
  return (
    <StatusContext.Provider value={setStatus}>
      <p class="visually-hidden" role="status" data-testid="status">
        {status}
      </p>
      {checking ? (
        <p class="muted page">Signing in…</p>
      ) : !session ? (
        <SignIn onSubmit={signIn} message={message} />
      ) : (
        <SessionContext.Provider value={session}>
          {/* The address is the router's: following #main would leave the page, so the link moves the focus only. */}
          <a
            class="skip"
            href="#main"
            onClick={(event) => {
              event.preventDefault();
              main.current?.focus();
            }}
          >
            Skip to content
          </a>
          <header class="top">
            <span class="brand">HQ console</span>
            <nav aria-label="Pages">
              {navigation.map((item) => (
                <a key={item.view} href={item.href} aria-current={currentView(route) === item.view ? 'page' : undefined}>
                  {item.label}
                </a>
              ))}
            </nav>
            <span class="who" data-testid="who">
              {session.me.operator} <span class={`pill role-${session.me.role}`}>{session.me.role}</span>
            </span>
            <button
              type="button"
              class="secondary"
              onClick={() => {
                signOut();
              }}
            >
              Sign out
            </button>
          </header>
          <main id="main" ref={main} tabIndex={-1} class="page">
            <Page route={route} />
          </main>
        </SessionContext.Provider>
      )}
    </StatusContext.Provider>
  );
}

function Page({ route }: { route: Route }) {
  switch (route.view) {
    case 'grid':
      return <GridView query={route.query} />;
    case 'day':
      return <DayView partnerId={route.partnerId} storeId={route.storeId} businessDate={route.businessDate} />;
    case 'sales':
      return <SalesView query={route.query} />;
    case 'unmapped':
      return <UnmappedView query={route.query} />;
    case 'operations':
      return <OperationsView />;
    case 'partner':
      return <PartnerView partnerId={route.partnerId} />;
  }
}

/** Which page a route shows, leaving its filters out. */
function pageOf(route: Route): string {
  if (route.view === 'day') return JSON.stringify([route.view, route.partnerId, route.storeId, route.businessDate]);
  if (route.view === 'partner') return JSON.stringify([route.view, route.partnerId]);
  return route.view;
}

/** The navigation entry a page belongs to (a day belongs to the grid, a partner to operations). */
function currentView(route: Route): Route['view'] {
  if (route.view === 'day') return 'grid';
  if (route.view === 'partner') return 'operations';
  return route.view;
}

function signInProblem(error: unknown): string {
  if (!(error instanceof HqApiError)) return 'Sign-in failed.';
  if (error.status === 401) return 'This key is not valid (unknown, revoked or expired).';
  if (error.code === 'OPERATOR_KEY_REQUIRED') return 'This is a partner key; the console needs an operator key.';
  return `Sign-in failed: ${error.message}`;
}
