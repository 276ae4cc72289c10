import { createHash } from 'node:crypto';

/** Where the web app finds a currency's image. */
export function currencyImagePath(ticker: string): string {
  return `/api/currencies/${ticker}.svg`;
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/**
 * A round badge with the ticker's first letters, in a colour derived from the ticker, so every
 * listed currency has an image without shipping artwork.
 */
export function currencyImageSvg(ticker: string): string {
  const hue = createHash('sha256').update(ticker).digest()[0]! * (360 / 256);
  const label = escapeXml(ticker.slice(0, 4));
  const size = label.length > 3 ? 11 : 13;
  return [
    '<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32" viewBox="0 0 32 32">',
    `<circle cx="16" cy="16" r="16" fill="hsl(${Math.round(hue)},55%,45%)"/>`,
    `<text x="16" y="20.5" font-family="Arial,sans-serif" font-size="${size}" font-weight="700"`,
    ` fill="#fff" text-anchor="middle">${label}</text></svg>`,
  ].join('');
}
