import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Menu, menuHoverDelayMs } from './Menu';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

function renderMenu() {
  render(
    <div>
      <Menu label="Trade">
        <button type="button">Pro Spot</button>
      </Menu>
      <p>outside</p>
    </div>,
  );
  return screen.getByRole('button', { name: 'Trade' });
}

const isOpen = (trigger: HTMLElement) => trigger.getAttribute('aria-expanded') === 'true';

describe('header menu', () => {
  it('opens on hover only after the spec delay', () => {
    vi.useFakeTimers();
    const trigger = renderMenu();
    fireEvent.mouseEnter(trigger.parentElement as HTMLElement);
    act(() => vi.advanceTimersByTime(menuHoverDelayMs - 1));
    expect(isOpen(trigger)).toBe(false);
    act(() => vi.advanceTimersByTime(1));
    expect(isOpen(trigger)).toBe(true);
    fireEvent.click(trigger);
    expect(isOpen(trigger)).toBe(true);
  });

  it('a pointer passing over it does not open it', () => {
    vi.useFakeTimers();
    const trigger = renderMenu();
    fireEvent.mouseEnter(trigger.parentElement as HTMLElement);
    fireEvent.mouseLeave(trigger.parentElement as HTMLElement);
    act(() => vi.advanceTimersByTime(menuHoverDelayMs * 2));
    expect(isOpen(trigger)).toBe(false);
  });

  it('closes on Escape, outside, and on a choice', () => {
    const trigger = renderMenu();
    fireEvent.click(trigger);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(isOpen(trigger)).toBe(false);
    fireEvent.click(trigger);
    fireEvent.mouseDown(screen.getByText('outside'));
    expect(isOpen(trigger)).toBe(false);
    fireEvent.click(trigger);
    fireEvent.click(screen.getByRole('button', { name: 'Pro Spot' }));
    expect(isOpen(trigger)).toBe(false);
  });
});
