import { XMLParser } from 'fast-xml-parser';
import { scanXml } from './src/iso20022/xml/scan.js';
import { resolveLimits } from './src/iso20022/limits.js';
import { parseXmlTree } from './src/iso20022/xml.js';
import { parseMessage } from './src/iso20022/parse.js';
const body = (i: number) => `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:pacs.008.001.09"><FIToFICstmrCdtTrf><GrpHdr><MsgId>M${i}</MsgId><CreDtTm>2025-03-14T09:30:12+01:00</CreDtTm><NbOfTxs>1</NbOfTxs><SttlmInf><SttlmMtd>CLRG</SttlmMtd></SttlmInf></GrpHdr><CdtTrfTxInf><PmtId><EndToEndId>E2E-${i}</EndToEndId></PmtId><IntrBkSttlmAmt Ccy="EUR">1.00</IntrBkSttlmAmt><IntrBkSttlmDt>2025-03-14</IntrBkSttlmDt><ChrgBr>SLEV</ChrgBr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct><DbtrAgt><FinInstnId><BICFI>DEUTDEFFXXX</BICFI></FinInstnId></DbtrAgt><CdtrAgt><FinInstnId><BICFI>NWBKGB2LXXX</BICFI></FinInstnId></CdtrAgt><CdtrAcct><Id><IBAN>GB29NWBK60161331926819</IBAN></Id></CdtrAcct><SplmtryData><Envlp><Ledger><SourceAccountId>ed0120aaaa@isobench</SourceAccountId><TargetAccountId>ed0120bbbb@isobench</TargetAccountId><AssetDefinitionId>eur#isobench</AssetDefinitionId></Ledger></Envlp></SplmtryData></CdtTrfTxInf></FIToFICstmrCdtTrf></Document>`;
const L = resolveLimits({});
const opts = { ignoreAttributes: false, attributeNamePrefix: '@_', removeNSPrefix: true, parseTagValue: false, parseAttributeValue: false, processEntities: false, htmlEntities: false, alwaysCreateTextNode: true, cdataPropName: '#cdata', ignoreDeclaration: true, ignorePiTags: true, trimValues: true, maxNestedTags: 65, isArray: (_n: string, _p: unknown, _l: unknown, a: boolean) => !a, jPath: false } as const;
const N = 5000;
const cases: Array<[string, (i: number) => unknown]> = [
  ['scan', (i) => scanXml(body(i), L)],
  ['newParser', () => new XMLParser(opts as never)],
  ['parser.parse', (i) => new XMLParser(opts as never).parse(body(i))],
  ['parseXmlTree', (i) => parseXmlTree(body(i))],
  ['parseMessage', (i) => parseMessage('pacs008', body(i))],
];
for (let round = 0; round < 2; round++) for (const [name, f] of cases) {
  for (let i = 0; i < 500; i++) f(i);
  const t = performance.now();
  for (let i = 0; i < N; i++) f(i);
  if (round) console.log(name.padEnd(14), ((performance.now() - t) / N * 1000).toFixed(1), 'us');
}
