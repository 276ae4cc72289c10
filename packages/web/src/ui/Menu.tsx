import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import styles from './menu.module.css';

/** The delay before a hovered menu opens, so a pointer passing over it does not (SPEC.md §9). */
export const menuHoverDelayMs = 77;

export interface MenuProps {
  label: ReactNode;
  /** The accessible name when `label` is not plain text. */
  ariaLabel?: string;
  children: ReactNode;
  align?: 'start' | 'end';
}

/** A header drop-down: opens on click or hover, closes on Escape, outside click or a choice. */
export function Menu({ label, ariaLabel, children, align = 'start' }: MenuProps) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const listId = useId();

  useEffect(() => {
    if (!open) return;
    const handlePointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    // A choice in the list (a link or a button) closes the menu.
    const handleChoice = (event: MouseEvent) => {
      const target = event.target as Element;
      if (listRef.current?.contains(target) && target.closest('a, button')) setOpen(false);
    };
    const handleKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false);
    };
    document.addEventListener('mousedown', handlePointer);
    document.addEventListener('click', handleChoice);
    document.addEventListener('keydown', handleKey);
    return () => {
      document.removeEventListener('mousedown', handlePointer);
      document.removeEventListener('click', handleChoice);
      document.removeEventListener('keydown', handleKey);
    };
  }, [open]);

  useEffect(() => () => clearTimeout(hoverTimer.current), []);

  // A click on a menu the pointer has just opened keeps it open instead of closing it.
  const openedByHover = useRef(false);
  const hoverTo = (next: boolean) => {
    clearTimeout(hoverTimer.current);
    hoverTimer.current = setTimeout(() => {
      openedByHover.current = next;
      setOpen(next);
    }, menuHoverDelayMs);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hover only opens early; the button is the control for keyboard and touch.
    <div
      ref={rootRef}
      className={styles.menu}
      onMouseEnter={() => hoverTo(true)}
      onMouseLeave={() => hoverTo(false)}
    >
      <button
        type="button"
        className={styles.trigger}
        aria-expanded={open}
        aria-controls={listId}
        aria-haspopup="true"
        aria-label={ariaLabel}
        onClick={() => {
          clearTimeout(hoverTimer.current);
          const keepOpen = openedByHover.current;
          openedByHover.current = false;
          setOpen((value) => keepOpen || !value);
        }}
      >
        {label}
        <span className={styles.caret} aria-hidden="true" />
      </button>
      <div
        ref={listRef}
        id={listId}
        className={`${styles.list} ${align === 'end' ? styles.alignEnd : ''}`}
        hidden={!open}
      >
        {children}
      </div>
    </div>
  );
}
