/**
 * ISO 4217 active currency codes with the number of minor-unit digits each uses
 * (amount fields must carry exactly that many decimal places, DESIGN §6).
 */
const exceptions: Readonly<Record<string, number>> = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  UYI: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
  CLF: 4,
  UYW: 4,
};

const twoDigitCodes = (
  'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL ' +
  'GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR ' +
  'LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD ' +
  'PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC ' +
  'SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG'
).split(' ');

const digitsByCode: ReadonlyMap<string, number> = new Map([
  ...twoDigitCodes.map((code): [string, number] => [code, 2]),
  ...Object.entries(exceptions),
]);

/** Minor-unit digits of an ISO 4217 code, or undefined when the code is not a known currency. */
export function minorUnitDigits(currency: string): number | undefined {
  return digitsByCode.get(currency);
}
