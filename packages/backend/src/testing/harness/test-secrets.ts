// One secret key per test process: every in-process backend and unit of work over any test database
// seals with it, so a second backend over the same database opens what the first one stored.
import { SecretBox } from '../../platform/secrets/secret-box';
import { SecretKey } from '../../platform/secrets/secret-key';

export const TEST_SECRETS = new SecretBox(SecretKey.generate('the tests'));
