import { useEffect, useState } from 'preact/hooks';

/** The console's pages, by hash route: the backend serves one index.html and needs no fallback route. */
export type Route =
  | { page: 'board'; params: URLSearchParams }
  | { page: 'task'; id: string }
  | { page: 'sessions'; params: URLSearchParams }
  | { page: 'questions' }
  | { page: 'settings' }
  | { page: 'signin-link-invalid' }
  | { page: 'not-found'; path: string };

export function parseRoute(hash: string): Route {
  const full = hash.replace(/^#/, '') || '/';
  const [path = '/', query = ''] = full.split('?', 2);
  const params = new URLSearchParams(query);
  if (path === '/') return { page: 'board', params };
  const task = /^\/tasks\/([^/]+)$/.exec(path);
  if (task?.[1] !== undefined) return { page: 'task', id: decodeURIComponent(task[1]) };
  if (path === '/sessions') return { page: 'sessions', params };
  if (path === '/questions') return { page: 'questions' };
  if (path === '/settings') return { page: 'settings' };
  if (path === '/signin-link-invalid') return { page: 'signin-link-invalid' };
  return { page: 'not-found', path };
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const onChange = () => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', onChange);
    return () => removeEventListener('hashchange', onChange);
  }, []);
  return route;
}

/** A hash link to a task. */
export const taskHref = (id: string): string => `#/tasks/${encodeURIComponent(id)}`;
