// Test-only: a logger that writes nothing.
import pino from 'pino';
import type { Logger } from '../logger';

export const silentLogger: Logger = pino({ level: 'silent' });
