import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError } from '@kandev/protocol';

/** A fresh random id for any row. */
export function newId(): string {
  return randomUUID();
}

/** Timestamps come back as strings from SQLite and as Dates from PostgreSQL. */
export function toIsoString(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'string') return value;
  throw new AppError('internal', `expected a timestamp column, got ${typeof value}`);
}

export function toNullableIsoString(value: unknown): string | null {
  return value === null || value === undefined ? null : toIsoString(value);
}

/** Booleans come back as 0/1 from SQLite and as booleans from PostgreSQL. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** JSON columns are a boundary: text in SQLite, parsed in PostgreSQL; either way validated. */
export function parseJsonColumn<T>(schema: z.ZodType<T>, value: unknown, column: string): T {
  let raw: unknown = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch (error) {
      throw new AppError('internal', `column ${column} holds invalid JSON`, undefined, { cause: error });
    }
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AppError('internal', `column ${column} holds unexpected data`, undefined);
  return parsed.data;
}

/**
 * Every column of `Row`, for reads that name them: on PostgreSQL a statement that names its columns
 * may run as a named statement, a `select *` never does (platform/store/driver/postgres-statement-names.ts). The
 * compiler checks that each column of `Row` is listed, and nothing else.
 */
export function columnsOf<Row>(columns: { [K in keyof Row & string]: true }): (keyof Row & string)[] {
  return Object.keys(columns) as (keyof Row & string)[];
}
