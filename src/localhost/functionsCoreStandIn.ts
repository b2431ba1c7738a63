/**
 * Stand-in for `@azure/functions-core`, the module the Azure Functions Node worker injects into
 * the process. `@azure/functions` hands every `app.http(...)` / `app.storageQueue(...)` call to that
 * module's `registerFunction(metadata, handler)`. By answering `require('@azure/functions-core')`
 * with the object below, the local host receives exactly the metadata the Azure host would see,
 * and serves the same registrations.
 *
 * How the module is provided: Node's CommonJS loader resolves every `require(id)` through
 * `Module._resolveFilename(id, ...)` and then returns `Module._cache[filename].exports` when that
 * entry exists. We wrap `_resolveFilename` so that, for this one id only, it answers a fixed
 * virtual file name, and we place an already-loaded module record holding the stand-in under that
 * name in `Module._cache`. All other ids go to the original resolver untouched. This works for the
 * compiled `dist/` code run by plain Node and under vitest, where `@azure/functions` is an external
 * dependency loaded by Node's own `require`.
 *
 * `@azure/functions` looks the module up lazily, on its first `app.*` call, and then keeps the
 * answer for the life of the process (also when the module was missing). The stand-in must
 * therefore be installed before the first `app.*` call: importing this file installs it.
 */
import Module from 'node:module';
import type { HttpHandler, HttpMethod, StorageQueueHandler, TimerHandler } from '@azure/functions';

/** One binding as `@azure/functions` describes it to the worker. */
export interface CoreBindingMetadata {
  readonly type: string;
  readonly direction: 'in' | 'out' | 'inout';
  readonly [property: string]: unknown;
}

/** The metadata `@azure/functions` passes to `registerFunction`. */
export interface CoreFunctionMetadata {
  readonly name: string;
  readonly bindings: Readonly<Record<string, CoreBindingMetadata>>;
  readonly retryOptions?: unknown;
}

interface CapturedBase {
  readonly name: string;
  /** The metadata exactly as the Azure host would receive it. */
  readonly metadata: CoreFunctionMetadata;
  /** Name of the trigger binding inside `metadata.bindings`. */
  readonly triggerBindingName: string;
  readonly triggerBinding: CoreBindingMetadata;
}

export interface CapturedHttpFunction extends CapturedBase {
  readonly kind: 'http';
  readonly handler: HttpHandler;
  /** Route below the host's route prefix; the function name when the registration names none. */
  readonly route: string;
  /** Upper-case methods the route accepts. */
  readonly methods: readonly HttpMethod[];
  readonly authLevel: 'anonymous' | 'function' | 'admin';
}

export interface CapturedQueueFunction extends CapturedBase {
  readonly kind: 'queue';
  readonly handler: StorageQueueHandler;
  readonly queueName: string;
  /** Name of the connection setting; undefined when the registration relies on the default. */
  readonly connection: string | undefined;
}

export interface CapturedTimerFunction extends CapturedBase {
  readonly kind: 'timer';
  readonly handler: TimerHandler;
  /** NCRONTAB expression, as registered. */
  readonly schedule: string;
  readonly runOnStartup: boolean;
  /** `useMonitor` as registered (default true): false, or a sub-minute schedule, means no schedule status. */
  readonly useMonitor: boolean;
}

export type CapturedFunction = CapturedHttpFunction | CapturedQueueFunction | CapturedTimerFunction;

interface RawRegistration {
  readonly metadata: CoreFunctionMetadata;
  readonly handler: unknown;
}

interface Disposable {
  dispose(): void;
}

const noopDisposable: Disposable = {
  dispose() {
    // Nothing to release: the stand-in holds no resources per registration.
  },
};

/**
 * State shared by every copy of this file loaded in the process. `@azure/functions` keeps the first
 * stand-in object it receives for good, so a second copy of this file (a test runner may evaluate
 * source files more than once) must reuse that object and its capture list, not make its own.
 */
interface StandInState {
  /** Registrations collected by the capture that is running, or undefined outside a capture. */
  currentCapture: RawRegistration[] | undefined;
  /** Whether `@azure/functions` has asked for the stand-in in this process. */
  requested: boolean;
  installed: boolean;
  readonly coreStandIn: object;
}

const stateKey = Symbol.for('pos-ingestion-service.localhost.functionsCoreStandIn');
const globalSlot = globalThis as { [stateKey]?: StandInState | undefined };

function createState(): StandInState {
  const state: StandInState = {
    currentCapture: undefined,
    requested: false,
    installed: false,
    /** The object `require('@azure/functions-core')` returns. Members follow the worker's core API. */
    coreStandIn: {
      setProgrammingModel(_model: unknown): void {
        // The local host calls handlers directly; the programming model object is not needed.
      },
      registerFunction(metadata: CoreFunctionMetadata, handler: unknown): Disposable {
        if (!state.currentCapture) {
          throw new Error(
            `Function "${metadata.name}" was registered outside captureRegistrations(); ` +
              'the local host only sees registrations made inside its register callback.',
          );
        }
        state.currentCapture.push({ metadata, handler });
        return noopDisposable;
      },
      registerHook(_hookName: string, _callback: unknown): Disposable {
        // App and invocation hooks are not run by the local host.
        return noopDisposable;
      },
      log(_level: string, _category: string, _message: string): void {
        // Library system messages (e.g. "discarding a GET body") are not surfaced locally.
      },
    },
  };
  return state;
}

const state: StandInState = (globalSlot[stateKey] ??= createState());

/** The module id the Functions worker provides. */
const coreModuleId = '@azure/functions-core';
/** Key of the stand-in in Node's module cache; not a real file. */
const virtualFileName = '/@azure/functions-core/(local-host-stand-in).js';

interface ModuleInternals {
  _resolveFilename: (request: string, ...rest: unknown[]) => string;
  _cache: Record<string, unknown>;
  new (id: string): { filename: string | null; loaded: boolean; exports: unknown };
}

/**
 * Makes `require('@azure/functions-core')` return the stand-in for the rest of the process.
 * Idempotent; called when this file is imported.
 */
function installFunctionsCoreStandIn(): void {
  if (state.installed) return;
  const internals = Module as unknown as ModuleInternals;

  // An already-loaded module record: Module._load returns its exports without reading any file.
  const record = new internals(virtualFileName);
  record.filename = virtualFileName;
  record.loaded = true;
  record.exports = state.coreStandIn;
  internals._cache[virtualFileName] = record;

  const originalResolve = internals._resolveFilename;
  internals._resolveFilename = function resolveWithStandIn(this: unknown, request: string, ...rest: unknown[]) {
    if (request === coreModuleId) {
      state.requested = true;
      // The record may have been evicted by code that clears require.cache; put it back.
      internals._cache[virtualFileName] = record;
      return virtualFileName;
    }
    return originalResolve.call(this, request, ...rest);
  };
  state.installed = true;
}

installFunctionsCoreStandIn();

/**
 * Runs `register` (which calls `app.http` / `app.storageQueue`) and returns what it registered.
 * Captures are independent: the same function name may be registered again by a later capture.
 */
export function captureRegistrations(register: () => void): CapturedFunction[] {
  installFunctionsCoreStandIn();
  if (state.currentCapture) {
    throw new Error('captureRegistrations() cannot be nested.');
  }
  const captured: RawRegistration[] = [];
  state.currentCapture = captured;
  try {
    register();
  } finally {
    state.currentCapture = undefined;
  }
  if (captured.length === 0 && !state.requested) {
    throw new Error(
      'No function registrations were captured. Either the register callback made no app.* call, ' +
        'or @azure/functions was used before the local host stand-in was installed ' +
        '(import src/localhost/functionsCoreStandIn first).',
    );
  }
  const names = new Set<string>();
  return captured.map((registration) => {
    const parsed = parseRegistration(registration);
    if (names.has(parsed.name.toLowerCase())) {
      throw new Error(`Function "${parsed.name}" is registered twice.`);
    }
    names.add(parsed.name.toLowerCase());
    return parsed;
  });
}

function parseRegistration({ metadata, handler }: RawRegistration): CapturedFunction {
  const triggers = Object.entries(metadata.bindings).filter(
    ([, binding]) => binding.direction === 'in' && binding.type.endsWith('Trigger'),
  );
  const [trigger] = triggers;
  if (triggers.length !== 1 || trigger === undefined) {
    throw new Error(`Function "${metadata.name}" must have exactly one trigger binding.`);
  }
  const [triggerBindingName, triggerBinding] = trigger;
  if (typeof handler !== 'function') {
    throw new Error(`Function "${metadata.name}" has no handler.`);
  }
  const base = { name: metadata.name, metadata, triggerBindingName, triggerBinding };

  switch (triggerBinding.type) {
    case 'httpTrigger': {
      const route = typeof triggerBinding.route === 'string' ? triggerBinding.route : metadata.name;
      const rawMethods = Array.isArray(triggerBinding.methods) ? (triggerBinding.methods as unknown[]) : [];
      const methods = rawMethods.map((method) => String(method).toUpperCase() as HttpMethod);
      const declaredAuthLevel = triggerBinding.authLevel ?? 'anonymous';
      const authLevel = typeof declaredAuthLevel === 'string' ? declaredAuthLevel.toLowerCase() : '';
      if (authLevel !== 'anonymous' && authLevel !== 'function' && authLevel !== 'admin') {
        throw new Error(`Function "${metadata.name}" has an unknown authLevel "${authLevel}".`);
      }
      return { ...base, kind: 'http', handler: handler as HttpHandler, route, methods, authLevel };
    }
    case 'queueTrigger': {
      const queueName = triggerBinding.queueName;
      if (typeof queueName !== 'string' || queueName === '') {
        throw new Error(`Function "${metadata.name}" has no queueName.`);
      }
      const connection = typeof triggerBinding.connection === 'string' ? triggerBinding.connection : undefined;
      return { ...base, kind: 'queue', handler: handler as StorageQueueHandler, queueName, connection };
    }
    case 'timerTrigger': {
      const schedule = triggerBinding.schedule;
      if (typeof schedule !== 'string' || schedule === '') {
        throw new Error(`Function "${metadata.name}" has no schedule.`);
      }
      return {
        ...base,
        kind: 'timer',
        handler: handler as TimerHandler,
        schedule,
        runOnStartup: triggerBinding.runOnStartup === true,
        useMonitor: triggerBinding.useMonitor !== false,
      };
    }
    default:
      throw new Error(`Function "${metadata.name}" uses trigger "${triggerBinding.type}", which the local host cannot run.`);
  }
}
