import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config';
import { rotateSecretKey } from './rotate-secret-key';
import { SecretKeyError } from '../../platform/secrets/secret-key-file';

// Key rotation, run with the backend stopped and the backend's own environment (docs/security.md):
//   npm run secret-key:rotate -- --new-key-file <path>
// Prints key ids and paths only, never a key or a secret.

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { 'new-key-file': { type: 'string' } }, strict: true });
  const newKeyFile = values['new-key-file'];
  if (newKeyFile === undefined) {
    process.stderr.write('usage: npm run secret-key:rotate -- --new-key-file <path>\n');
    return 2;
  }
  try {
    const result = await rotateSecretKey(loadConfig(), newKeyFile);
    const next =
      result.replacedKeyFile !== undefined
        ? `${result.replacedKeyFile} now holds the new key`
        : `start the backend with KANDEV_SECRET_KEY_FILE=${newKeyFile} (or KANDEV_SECRET_KEY set to its contents)`;
    process.stdout.write(
      `re-sealed ${result.rewritten} stored secrets from key ${result.oldKeyId} to key ${result.newKeyId}; ${next}\n`,
    );
    return 0;
  } catch (error) {
    if (!(error instanceof SecretKeyError || error instanceof ConfigError)) throw error;
    process.stderr.write(`secret-key:rotate: ${error.message}; nothing was changed\n`);
    return 2;
  }
}

void main().then((code) => process.exit(code));
