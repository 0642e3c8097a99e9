import { z } from 'zod';
import { type Provider, ProviderSchema } from '@kandev/protocol';
import { IdSchema } from '../store/id-schema';

// A workspace's credentials for one provider. The token is write-only: it goes into the store and
// nothing ever reads it back out through REST, tool replies, errors or logs.

/** What may be shown about a stored credential: never the token. */
export interface CredentialSummary {
  workspaceId: string;
  provider: Provider;
  username: string | null;
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
  })
  .strict();
export type PutCredentialBody = z.infer<typeof PutCredentialBodySchema>;

export interface CredentialView {
  provider: Provider;
  configured: true;
  username: string | null;
}

export function toCredentialView(credential: CredentialSummary): CredentialView {
  return { provider: credential.provider, configured: true, username: credential.username };
}
