/**
 * Intl formatters, built once per locale and options and kept: building one costs a fraction of a
 * millisecond here and several on a slow phone, and a cabinet's first screen formats hundreds of amounts
 * and dates (one new formatter each made ~450 ms of a launch's main-thread work at a 4× slower CPU). The
 * keys are the interface's few languages times the options the app uses, so the maps stay small.
 */
const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function kept<F>(cache: Map<string, F>, locale: string, options: object, build: () => F): F {
  const key = `${locale}\u0000${JSON.stringify(options)}`;
  let format = cache.get(key);
  if (format === undefined) {
    format = build();
    cache.set(key, format);
  }
  return format;
}

export function numberFormat(locale: string, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  return kept(numberFormats, locale, options, () => new Intl.NumberFormat(locale, options));
}

export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions = {}): Intl.DateTimeFormat {
  return kept(dateFormats, locale, options, () => new Intl.DateTimeFormat(locale, options));
}
