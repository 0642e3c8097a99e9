import { z } from 'zod';
import { MAX_PAGE_LIMIT, ProviderSchema } from '@kandev/protocol';
import { IdSchema } from '../../platform/store/id-schema';
import { type RepositoryIdentity, SOURCE_TYPES } from './provider-identity';

/** A registered repository: its identity, derived once at registration, plus where it belongs. */
export interface Repository extends RepositoryIdentity {
  id: string;
  workspaceId: string;
  createdAt: string;
}

/** Field shapes shared by every way a repository is named (registration, workspace sources). */
export const RemoteUrlSchema = z.string().trim().min(1).max(2048);
export const LocalPathSchema = z.string().trim().min(1).max(4096);
/** Explicit provider: free text here; the identity rules normalise it (unknown means none). */
export const ProviderInputSchema = z.string().max(64).nullable();

export const CreateRepositoryBodySchema = z
  .object({
    workspace_id: IdSchema,
    remote_url: RemoteUrlSchema.optional(),
    local_path: LocalPathSchema.optional(),
    provider: ProviderInputSchema.optional(),
    name: z.string().trim().min(1).max(255).optional(),
  })
  .strict()
  .refine((body) => (body.remote_url === undefined) !== (body.local_path === undefined), {
    message: 'exactly one of remote_url and local_path is required',
    path: ['remote_url'],
  });
export type CreateRepositoryBody = z.infer<typeof CreateRepositoryBodySchema>;

/** GET /api/repositories: cursor pages, optionally of one workspace. */
export const ListRepositoriesQuerySchema = z
  .object({
    workspace_id: IdSchema.optional(),
    cursor: z.string().min(1).max(512).optional(),
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).optional(),
  })
  .strict();
export type ListRepositoriesQuery = z.infer<typeof ListRepositoriesQuerySchema>;

/** GET /api/repositories/:id (the schema documents it in GET /api/openapi.json). */
export const RepositoryViewSchema = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    source_type: z.enum(SOURCE_TYPES),
    provider: ProviderSchema.nullable(),
    provider_host: z.string().nullable(),
    owner: z.string().nullable(),
    name: z.string(),
    remote_url: z.string().nullable(),
    local_path: z.string().nullable(),
    created_at: z.string(),
  })
  .strict()
  .meta({ id: 'Repository' });
export type RepositoryView = z.infer<typeof RepositoryViewSchema>;

export function toRepositoryView(repository: Repository): RepositoryView {
  return {
    id: repository.id,
    workspace_id: repository.workspaceId,
    source_type: repository.sourceType,
    provider: repository.provider,
    provider_host: repository.providerHost,
    owner: repository.owner,
    name: repository.name,
    remote_url: repository.remoteUrl,
    local_path: repository.localPath,
    created_at: repository.createdAt,
  };
}
