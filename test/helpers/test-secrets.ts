// One secret key per test process: every in-process backend and unit of work over any test database
// seals with it, so a second backend over the same database opens what the first one stored.
import { SecretBox } from '../../packages/backend/src/platform/secrets/secret-box';
import { SecretKey } from '../../packages/backend/src/platform/secrets/secret-key';

export const TEST_SECRETS = new SecretBox(SecretKey.generate('the tests'));
