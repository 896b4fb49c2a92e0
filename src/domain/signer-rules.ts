/** What the signer rules read of a signer (the contract's SignerInput has these properties). */
export interface SignerEntry {
  reference: string;
  email: string;
  order: number;
}

/** Signer rules across the list: unique references and emails; unique orders when signing is sequential. */
export function checkSigners(signers: readonly SignerEntry[], sequential: boolean, root: string): string | null {
  const references = new Set<string>();
  const emails = new Set<string>();
  const orders = new Set<number>();
  for (const [i, signer] of signers.entries()) {
    const at = `${root}[${i}]`;
    if (references.has(signer.reference)) return `${at}.reference "${signer.reference}" is used by another signer`;
    references.add(signer.reference);
    const email = signer.email.toLowerCase();
    if (emails.has(email)) return `${at}.email ${signer.email} is used by another signer`;
    emails.add(email);
    if (sequential) {
      if (orders.has(signer.order)) return `${at}.order ${signer.order} is used by another signer (sequential_signing needs unique orders)`;
      orders.add(signer.order);
    }
  }
  return null;
}
