/**
 * The captions of signing blocks in Romanian, Indonesian, Turkish and Greek, and their party words: the corpus's further languages
 * (lexicon-european.ts holds the other European ones). Pure data in the shape of lexicon-european.ts, written readably
 * and normalised by lexicon.ts (diacritics dropped: "Semnătura" is "semnatura", "Cumpărător" "cumparator").
 */

import { nameCaptions, signatureCaptions, signingDateCaptions, type EuropeanEntry } from './lexicon-european.js';

export const FURTHER_LABELS: readonly EuropeanEntry[] = [
  // Romanian: "Semnătura" (signature), "Semnătura și ștampila" (signature and stamp), "Data semnării" (date of signing),
  // "Nume și prenume" (name and first name).
  ...signatureCaptions(undefined, 'semnatura', 'semnaturi', 'semnaturile', 'semnatura si stampila', 'stampila si semnatura'),
  ...signingDateCaptions(undefined, 'data semnarii'),
  ...nameCaptions(undefined, 'nume', 'numele', 'nume si prenume', 'numele si prenumele', 'nume prenume'),
  // Indonesian: "Tanda tangan" (signature; "Ttd." for short). (Not "Nama", name: "(Nama Terang)" under a line is whose
  // signature goes over it, the name written in the parentheses.)
  ...signatureCaptions(undefined, 'tanda tangan', 'tandatangan', 'ttd'),
  // Turkish: "İmza" (signature; "İmzası", whose), "Tarih" (date), "Adı Soyadı" (name and surname; its dotless "ı" a plain "i"
  // in capitals, "ADI SOYADI").
  ...signatureCaptions(undefined, 'imza', 'imzası', 'imzasi', 'imzalar', 'tarih ve imza'),
  ...signingDateCaptions(undefined, 'tarih'),
  ...nameCaptions(undefined, 'adı soyadı', 'adi soyadi', 'ad soyad'),
  // Greek: "Υπογραφή" (signature), "Ημερομηνία" (date), "Ονοματεπώνυμο" (full name).
  ...signatureCaptions(undefined, 'υπογραφη', 'υπογραφες', 'ο υπογραφων', 'η υπογραφουσα'),
  ...signingDateCaptions(undefined, 'ημερομηνια'),
  ...nameCaptions(undefined, 'ονοματεπωνυμο'),
];

/** Party words of these languages, to the role hint they give. (Not Romanian "locator", the lessor: an English word too, "record locator".) */
// biome-ignore format: a word list, a line per language
export const FURTHER_PARTIES: ReadonlyArray<[string, string]> = [
  ['mandant', 'principal'], ['mandatar', 'agent'], ['chirias', 'tenant'], ['proprietar', 'owner'], ['cumparator', 'buyer'], ['vanzator', 'seller'], ['prestator', 'provider'], ['beneficiar', 'client'], ['martor', 'witness'], ['angajator', 'employer'], ['angajat', 'employee'],
  ['penyewa', 'tenant'], ['pemilik', 'owner'], ['pembeli', 'buyer'], ['penjual', 'seller'], ['saksi', 'witness'],
];
