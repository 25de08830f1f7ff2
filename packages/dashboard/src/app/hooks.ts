import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

/** Figures are read again this often while the tab is visible. */
export const REFRESH_MS = 10_000;

export interface Polled<T> {
  data: T | undefined;
  error: ApiError | undefined;
  /** Reads again now (after a change the page made). */
  reload: () => void;
}

/**
 * Loads at once and again every 10 s while the tab is visible (a hidden tab asks nothing; it
 * reads again as soon as it is shown). A read still running is not started twice; one whose
 * inputs changed meanwhile is abandoned. The last good data stays on screen when a refresh fails.
 */
export function usePoll<T>(load: (signal: AbortSignal) => Promise<T>, inputs: readonly unknown[]): Polled<T> {
  const [state, setState] = useState<{ data: T | undefined; error: ApiError | undefined }>({ data: undefined, error: undefined });
  const loadRef = useRef(load);
  loadRef.current = load;
  const runRef = useRef<() => void>(() => {});

  // A layout effect, so the first read starts as the view mounts rather than after a paint.
  useLayoutEffect(() => {
    const controller = new AbortController();
    let running = false;
    setState({ data: undefined, error: undefined });
    const run = () => {
      if (running || controller.signal.aborted) return;
      running = true;
      loadRef.current(controller.signal).then(
        (data) => {
          running = false;
          if (!controller.signal.aborted) setState({ data, error: undefined });
        },
        (error: unknown) => {
          running = false;
          if (controller.signal.aborted) return;
          const failure =
            error instanceof ApiError ? error : new ApiError(0, 'page_error', error instanceof Error ? error.message : String(error));
          setState((previous) => ({ data: previous.data, error: failure }));
        },
      );
    };
    runRef.current = run;
    let timer: ReturnType<typeof setInterval> | undefined;
    const schedule = () => {
      if (timer !== undefined) clearInterval(timer);
      timer = document.hidden ? undefined : setInterval(run, REFRESH_MS);
    };
    const onVisibility = () => {
      if (!document.hidden) run();
      schedule();
    };
    run();
    schedule();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      controller.abort();
      if (timer !== undefined) clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, inputs);

  const reload = useCallback(() => runRef.current(), []);
  return { ...state, reload };
}

/** The page's place: `#/keys/key_…` is `['keys', 'key_…']`. */
export function useRoute(): string[] {
  const read = () =>
    location.hash
      .replace(/^#\/?/, '')
      .split('/')
      .filter(Boolean)
      .map((part) => decodeURIComponent(part));
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const onChange = () => setRoute(read());
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

export function navigate(hash: string): void {
  if (location.hash !== hash) location.hash = hash;
}

/** Cursor pages: the cursors of the pages read so far, the current one last. */
export interface Pager {
  after: string | null;
  page: number;
  next: (cursor: string | null) => void;
  previous: () => void;
  reset: () => void;
}

export function usePager(): Pager {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  return {
    after: cursors.at(-1) ?? null,
    page: cursors.length,
    next: (cursor) => {
      if (cursor) setCursors((all) => [...all, cursor]);
    },
    previous: () => setCursors((all) => (all.length > 1 ? all.slice(0, -1) : all)),
    reset: () => setCursors([null]),
  };
}

/** A form's fields as state: `bind('name')` gives an input its value and keeps it on input. */
export function useFields<T extends Record<string, string>>(initial: T) {
  const [values, setValues] = useState(initial);
  const bind = (name: keyof T & string) => ({
    name,
    value: values[name],
    onInput: (event: Event) => {
      const value = (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;
      setValues((previous) => ({ ...previous, [name]: value }));
    },
  });
  return { values, bind, reset: () => setValues(initial) };
}
