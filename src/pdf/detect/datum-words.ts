/** Words of data captions, read by the rules of signature blocks: a line captioned by one asks for its value, not for a signer. */
import { PLACE_WORDS } from './filled-blanks.js';

/**
 * Words that caption a datum, not a person ("Mailing Address", "Zip Code", "Relationship to Patient", "DNI"): never
 * part of a name typed under a line, nor a co-signer's caption.
 */
export const DATUM_WORDS = new Set([
  ...PLACE_WORDS,
  ...['relationship', 'relation', 'lien', 'parente', 'beziehung', 'verhaltnis', 'rapporto', 'parentela', 'relacion', 'parentesco', 'relacao'],
  ...['address', 'street', 'state', 'zip', 'postal', 'code', 'country', 'phone', 'telephone', 'mobile', 'number', 'email', 'mailing'],
  ...['adresse', 'rue', 'telefon', 'strasse', 'anschrift', 'postleitzahl', 'indirizzo', 'telefono', 'direccion', 'endereco', 'telefone'],
  ...['id', 'identification', 'identificacion', 'identidad', 'identite', 'dni', 'cpf', 'rut', 'cedula', 'passport', 'passeport', 'pasaporte', 'ausweis'],
  ...['rg', 'nif', 'nie', 'cuit', 'cuil', 'curp', 'rfc', 'ssn', 'matricula', 'fiscale', 'codice'],
]);
