const CODEPOINTS = /^[0-9a-f]{4,6}(-[0-9a-f]{4,6})*$/i;
const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * The GitBook `emoji` format: one emoji (a single grapheme cluster made of
 * emoji code points), or its code points in hex ("1f389", "1f468-200d-1f4bb").
 */
export function isEmoji(value: string): boolean {
  if (value.length === 0 || value.length > 50) return false;
  if (CODEPOINTS.test(value)) {
    return value.split('-').every((hex) => Number.parseInt(hex, 16) <= 0x10ffff);
  }
  const graphemes = [...segmenter.segment(value)];
  return graphemes.length === 1 && PICTOGRAPHIC.test(value);
}
