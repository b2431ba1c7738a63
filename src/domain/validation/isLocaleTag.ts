const localeShape = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/;

/** Whether a string is a well-formed BCP 47 language tag (`en-US`, `zh-Hant-TW`, `ja`). */
export function isLocaleTag(tag: string): boolean {
  if (!localeShape.test(tag)) return false;
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}
