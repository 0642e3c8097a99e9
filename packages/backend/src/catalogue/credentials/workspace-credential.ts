import { z } from 'zod';
import { type Provider, ProviderSchema } from '@kandev/protocol';
import { IdSchema } from '../../platform/store/id-schema';

// A workspace's credentials for one provider. The token is write-only: it goes into the store and
// nothing ever reads it back out through REST, tool replies, errors or logs.

/** What may be shown about a stored credential: never the token. */
export interface CredentialSummary {
  workspaceId: string;
  provider: Provider;
  username: string | null;
  /** The provider instance (GitLab: gitlab.com or a self-managed host); null means the default. */
  baseUrl: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface WorkspaceCredential extends CredentialSummary {
  token: string;
}

export const CredentialParamsSchema = z.object({ id: IdSchema, provider: ProviderSchema }).strict();

export const PutCredentialBodySchema = z
  .object({
    token: z
      .string()
      .max(4096)
      .refine((token) => token.trim().length > 0, 'token must not be blank'),
    username: z.string().trim().min(1).max(255).nullable().optional(),
    // http(s) only: the lifecycle poller sends the token there.
    base_url: z
      .string()
      .trim()
      .max(1024)
      .url()
      .refine((url) => /^https?:\/\//i.test(url), 'base_url must be an http(s) URL')
      .optional(),
  })
  .strict();
export type PutCredentialBody = z.infer<typeof PutCredentialBodySchema>;

/** PUT and GET .../credentials (the schema documents them in GET /api/openapi.json): never a token. */
export const CredentialViewSchema = z
  .object({
    provider: ProviderSchema,
    configured: z.literal(true),
    username: z.string().nullable(),
    base_url: z.string().optional(),
  })
  .strict()
  .meta({ id: 'Credential' });
export type CredentialView = z.infer<typeof CredentialViewSchema>;

export function toCredentialView(credential: CredentialSummary): CredentialView {
  const view: CredentialView = { provider: credential.provider, configured: true, username: credential.username };
  if (credential.baseUrl !== null) view.base_url = credential.baseUrl;
  return view;
}
