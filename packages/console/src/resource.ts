import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';
import { describeError } from './errors';

/** Set by the app: a 401 on any read means the sign-in is gone (token revoked, backend reset). */
export const session = { onUnauthorized: (): void => undefined };

export interface Resource<T> {
  data: T | undefined;
  /** The last read failed (the data shown, if any, is from before). Cleared by the next good read. */
  error: string | undefined;
  /** The backend said 404: the id in the route does not exist (or no longer does). */
  notFound: boolean;
  reload: () => void;
  /** A change applied locally (a live entry, a page loaded more); a read in flight is followed by another. */
  update: (change: (current: T) => T) => void;
  /** True while a read is in flight. */
  loading: { readonly current: boolean };
}

/**
 * What a page reads for `key` (its route id), kept current: nothing of another key is ever shown (the
 * data is cleared when the key changes, and an answer for an old key is dropped); reads come one at a
 * time, with one more after a burst of reload calls; a good read clears the error.
 */
export function useResource<T>(key: string, load: (key: string) => Promise<T>): Resource<T> {
  const [data, setState] = useState<T | undefined>();
  // The data as last set, for `update`: a state updater function saw an older value in a burst of
  // renders (a "load more" appended to a list the screen no longer showed).
  const latest = useRef<T | undefined>(undefined);
  const setData = (value: T | undefined) => {
    latest.current = value;
    setState(value);
  };
  const [error, setError] = useState<string | undefined>();
  const [notFound, setNotFound] = useState(false);
  const current = useRef(key);
  const loading = useRef(false);
  const again = useRef(false);
  /** A local change came while a read was in flight: that read's answer is older, dropped. */
  const superseded = useRef(false);
  const loader = useRef(load);
  loader.current = load;

  const reload = () => {
    if (loading.current) {
      again.current = true;
      return;
    }
    loading.current = true;
    const asked = current.current;
    loader
      .current(asked)
      .then(
        (loaded) => {
          if (asked !== current.current || superseded.current) return;
          setData(loaded);
          setError(undefined);
          setNotFound(false);
        },
        (failure: unknown) => {
          if (asked !== current.current) return;
          if (failure instanceof ApiError && failure.status === 401) session.onUnauthorized();
          if (failure instanceof ApiError && failure.status === 404) {
            setNotFound(true);
            setData(undefined);
            setError(undefined);
            return;
          }
          setError(describeError(failure));
        },
      )
      .finally(() => {
        loading.current = false;
        if (again.current || superseded.current || asked !== current.current) {
          again.current = false;
          superseded.current = false;
          reload();
        }
      });
  };

  useEffect(() => {
    current.current = key;
    setData(undefined);
    setError(undefined);
    setNotFound(false);
    reload();
  }, [key]);

  const update = (change: (value: T) => T) => {
    // A read in flight started before this change and would undo it: its answer is dropped, another follows.
    if (loading.current) superseded.current = true;
    if (latest.current !== undefined) setData(change(latest.current));
  };
  return { data, error, notFound, reload, update, loading };
}
