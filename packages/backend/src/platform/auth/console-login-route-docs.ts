import { z } from 'zod';
import type { RouteDoc } from '../openapi/openapi';
import { CodeQuerySchema, LoginBodySchema } from './console-login';

/** The web console's sign-in (console-login.ts, docs/console.md). /login and /logout are public. */
export const CONSOLE_LOGIN_ROUTE_DOCS: RouteDoc[] = [
  {
    method: 'post',
    path: '/login',
    operationId: 'signIn',
    summary: "Sign a browser in: the token becomes the console's HttpOnly cookie",
    description: 'Sets `kandev_session` (HttpOnly, SameSite=Strict, Path=/; Secure over https).',
    open: true,
    checksToken: true,
    body: LoginBodySchema,
    ok: { status: 204, description: 'signed in (Set-Cookie)' },
  },
  {
    method: 'post',
    path: '/logout',
    operationId: 'signOut',
    summary: "Sign a browser out: clears the console's cookie",
    open: true,
    ok: { status: 204, description: 'signed out (Set-Cookie clears it)' },
  },
  {
    method: 'get',
    path: '/login',
    operationId: 'redeemLoginLink',
    summary: 'Redeem a one-time sign-in link',
    description:
      'A valid code sets the cookie and redirects to `/`; a used, expired or unknown one to the sign-in page.',
    open: true,
    query: CodeQuerySchema,
    ok: { status: 303, description: 'a redirect to the console' },
  },
  {
    method: 'post',
    path: '/api/console/login-links',
    operationId: 'createLoginLink',
    summary: 'Issue a one-time sign-in link for the console',
    description:
      'The link signs a browser in as the token that asked for it, once, within 5 minutes, through any replica.',
    ok: {
      status: 201,
      description: '`{url, expires_at}`',
      schema: z.object({ url: z.string(), expires_at: z.string() }).strict().meta({ id: 'LoginLink' }),
    },
  },
];
