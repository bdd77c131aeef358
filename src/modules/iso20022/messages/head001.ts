// head.001 Business Application Header (AppHdr), read when a message comes in an envelope and as
// a message of its own. Fields: Fr/To (FIId/FinInstnId/BICFI), BizMsgIdr, MsgDefIdr, BizSvc,
// CreDt, PssblDplct (head.001.001.01–.04 share these names).

import { type Issues, optBic, optText, reqDateTime, reqText } from '../validate/fields.js';
import { checkMessageDefinitionId } from '../validate/identifiers.js';
import type { XmlCursor } from '../xml/cursor.js';

const HEAD_001_NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:head\.001\.001\.\d{2}$/;

export interface AppHeader {
  readonly fromBic: string | undefined;
  readonly toBic: string | undefined;
  readonly businessMessageId: string;
  readonly messageDefinitionId: string;
  readonly businessService: string | undefined;
  readonly creationDate: string;
  readonly possibleDuplicate: boolean | undefined;
}

export interface Head001Message {
  readonly kind: 'head001';
  readonly header: AppHeader;
}

/**
 * Reads an AppHdr. `documentDefinitionId` is the Document's namespace id when the header travels
 * with a Document: its MsgDefIdr must then name the same message definition.
 */
export function readAppHeader(
  c: XmlCursor,
  namespace: string | undefined,
  documentDefinitionId: string | undefined,
  is: Issues,
): AppHeader | undefined {
  if (namespace === undefined || !HEAD_001_NAMESPACE.test(namespace)) {
    is.add('namespace_unknown', c.path, 'AppHdr must be in a head.001.001.xx namespace');
  }
  const fromBic = optBic(is, c.at('Fr', 'FIId', 'FinInstnId', 'BICFI'));
  const toBic = optBic(is, c.at('To', 'FIId', 'FinInstnId', 'BICFI'));
  const businessMessageId = reqText(is, c.child('BizMsgIdr'));
  const msgDef = c.child('MsgDefIdr');
  const raw = msgDef.text();
  const messageDefinitionId =
    raw === undefined ? is.missing(msgDef.path) : is.apply(checkMessageDefinitionId(raw), msgDef.path);
  if (
    messageDefinitionId !== undefined &&
    documentDefinitionId !== undefined &&
    messageDefinitionId !== documentDefinitionId
  ) {
    is.add(
      'msgdef_mismatch',
      msgDef.path,
      `MsgDefIdr ${messageDefinitionId} does not match the Document (${documentDefinitionId})`,
    );
  }
  const businessService = optText(is, c.child('BizSvc'));
  const creationDate = reqDateTime(is, c.child('CreDt'));
  const duplicate = c.child('PssblDplct');
  const flag = duplicate.text();
  if (flag !== undefined && flag !== 'true' && flag !== 'false') {
    is.add('field_type', duplicate.path, 'PssblDplct is true or false');
  }
  if (businessMessageId === undefined || messageDefinitionId === undefined || creationDate === undefined)
    return undefined;
  return {
    fromBic,
    toBic,
    businessMessageId,
    messageDefinitionId,
    businessService,
    creationDate,
    possibleDuplicate: flag === undefined ? undefined : flag === 'true',
  };
}
