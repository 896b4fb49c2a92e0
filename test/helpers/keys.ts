import { randomBase62 } from '../../src/platform/crypto/tokens.js';

/** A key of the right shape that no data directory knows: made fresh, never written in a test. */
export function unknownApiKey(): string {
  return `paraph_test_${randomBase62(32)}`;
}
