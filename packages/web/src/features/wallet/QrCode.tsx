import qrcode from 'qrcode-generator';
import { useMemo } from 'react';
import styles from './wallet.module.css';

/** `text` as a QR code (SVG, error correction M), labelled for screen readers. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const svg = useMemo(() => {
    const code = qrcode(0, 'M');
    code.addData(text);
    code.make();
    return code.createSvgTag({ cellSize: 4, margin: 0, scalable: true });
  }, [text]);
  return (
    <div
      className={styles.qr}
      role="img"
      aria-label={label}
      data-testid="deposit-qr"
      // The markup is built by the QR library from `text` alone; it holds no user HTML.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: generated SVG, see above
      dangerouslySetInnerHTML={{ __html: svg }}
    />
  );
}
