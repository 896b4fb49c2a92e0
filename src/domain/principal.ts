/** Who makes an API call: the account an API key belongs to, and the key (the audit trail names it). */
export interface Principal {
  accountId: string;
  apiKeyId: string;
}
