/**
 * The four places where the API description writes `service` and paraph writes its brand word.
 * `--brand` swaps the word so a client written for a hosted service runs unchanged.
 */
export interface BrandNames {
  readonly word: string;
  readonly apiKeyPrefix: string;
  readonly evidenceSchemaVersion: string;
  readonly iframeSource: string;
  readonly returnStatusParam: string;
}

export function brandNames(word: string): BrandNames {
  return Object.freeze({
    word,
    apiKeyPrefix: `${word}_test_`,
    evidenceSchemaVersion: `${word}.evidence/1.2`,
    iframeSource: word,
    returnStatusParam: `${word}_status`,
  });
}
