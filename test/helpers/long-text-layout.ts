/**
 * What long keys and names do wrong to a page, measured in the browser (run with `page.evaluate`):
 * the page or a box in it scrolls sideways, a column heading is cut, broken inside a word or off
 * screen, a list row's name takes more than two lines, text is cut without its whole in a tooltip,
 * or a key is cut with no tooltip or copy button holding it.
 */

export interface LongTexts {
  keys: string[];
  /** Names a list row shows in at most two lines. */
  names: string[];
}

/** One line per problem found; none when the page holds its long texts. */
export function longTextProblems({ keys, names }: LongTexts): string[] {
  // Runs in the page: the DOM is not among the test code's types.
  const win: any = globalThis;
  /** The width Chromium's select keeps for its arrow, right of the chosen option's text. */
  const SELECT_ARROW = 20;
  const doc = win.document;
  const problems: string[] = [];
  const style = (el: any) => win.getComputedStyle(el);
  const shown = (el: any): boolean => el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true });
  const textOf = (el: any): string => (el.textContent ?? '').trim();
  const label = (el: any): string => {
    const text = textOf(el);
    return `${el.tagName.toLowerCase()}${[...el.classList].map((c: string) => `.${c}`).join('')} “${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;
  };
  /** The element or an ancestor has `text` whole in its tooltip (all of it, where the text is shortened to end in “…”). */
  const titled = (el: any, text: string): boolean => {
    const whole = text.replace(/…$/, '');
    for (let up = el; up !== null; up = up.parentElement) if (up.getAttribute('title')?.includes(whole)) return true;
    return false;
  };
  const controls = 'input, textarea, select, option';
  /** Inside a box clipped to a pixel or less: there for screen readers only. */
  const screenReaderOnly = (el: any): boolean => {
    for (let up = el; up !== null; up = up.parentElement) {
      const box = up.getBoundingClientRect();
      if (style(up).overflowX !== 'visible' && (box.width <= 1 || box.height <= 1)) return true;
    }
    return false;
  };
  /** Part of `el` lies outside the window's width or outside an ancestor that clips or scrolls. */
  const cut = (el: any): boolean => {
    const rects = [...el.getClientRects()];
    const outside = (box: { left: number; right: number; top: number; bottom: number }, y: boolean) =>
      rects.some((r) => r.left < box.left - 1 || r.right > box.right + 1 || (y && (r.top < box.top - 1 || r.bottom > box.bottom + 1)));
    if (outside({ left: 0, right: win.innerWidth, top: 0, bottom: 0 }, false)) return true;
    for (let up = el.parentElement; up !== null && up !== doc.body; up = up.parentElement) {
      const s = style(up);
      const clipsX = s.overflowX !== 'visible';
      // What a box scrolls to vertically (a long dialog) is reachable, not cut.
      const clipsY = s.overflowY === 'hidden' || s.overflowY === 'clip';
      if (!clipsX && !clipsY) continue;
      const box = up.getBoundingClientRect();
      if (outside({ left: clipsX ? box.left : -Infinity, right: clipsX ? box.right : Infinity, top: box.top, bottom: box.bottom }, clipsY)) return true;
    }
    return false;
  };
  /** The text of `el` line by line, as it is laid out. */
  const linesOf = (el: any): string[] => {
    const lines: string[] = [];
    let top = Number.NaN;
    const texts = doc.createTreeWalker(el, 4);
    for (let node = texts.nextNode(); node !== null; node = texts.nextNode()) {
      const range = doc.createRange();
      for (let i = 0; i < node.data.length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const at = range.getBoundingClientRect().top;
        if (Number.isNaN(top) || at > top + 2) {
          lines.push('');
          top = at;
        }
        lines[lines.length - 1] += node.data[i];
      }
    }
    return lines;
  };
  /** The innermost shown elements whose whole text is `text`. */
  const holding = (text: string): any[] =>
    [...doc.querySelectorAll('body *')].filter((el: any) => textOf(el) === text && shown(el) && el.closest(controls) === null && ![...el.children].some((child: any) => textOf(child) === text));

  const root = doc.documentElement;
  if (root.scrollWidth > root.clientWidth) problems.push(`the page is ${root.scrollWidth}px wide in a ${root.clientWidth}px window`);

  for (const box of doc.querySelectorAll('body *')) {
    if (box.matches(controls) || !shown(box) || screenReaderOnly(box)) continue;
    const s = style(box);
    const scrolls = s.overflowX === 'auto' || s.overflowX === 'scroll';
    if ((scrolls || box.matches('main, section, .card, table')) && box.scrollWidth > box.clientWidth + 1) {
      problems.push(`${label(box)} holds ${box.scrollWidth}px of content in ${box.clientWidth}px`);
    } else if (!scrolls && (s.overflowX !== 'visible' || s.overflowY !== 'visible') && box.clientWidth > 2 && (box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1) && !titled(box, textOf(box))) {
      problems.push(`${label(box)} is cut without its whole text in a tooltip`);
    }
  }

  for (const th of doc.querySelectorAll('thead th')) {
    if (!shown(th) || textOf(th) === '' || screenReaderOnly(th)) continue;
    if (cut(th) || th.scrollWidth > th.clientWidth + 1) problems.push(`the column heading ${label(th)} is cut or off screen`);
    const words = doc.createTreeWalker(th, 4);
    for (let node = words.nextNode(); node !== null; node = words.nextNode()) {
      for (const word of node.data.matchAll(/\S+/g)) {
        const range = doc.createRange();
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        if (range.getClientRects().length > 1) problems.push(`the column heading ${label(th)} breaks inside “${word[0]}”`);
      }
    }
  }

  for (const name of names) {
    for (const el of holding(name)) {
      // A history's changed values are shown whole.
      if (el.closest('tbody tr, li') === null || el.closest('ins, del') !== null) continue;
      const s = style(el);
      const line = s.lineHeight === 'normal' ? parseFloat(s.fontSize) * 1.2 : parseFloat(s.lineHeight);
      const height = el.getBoundingClientRect().height;
      if (height > 2 * line + 2) problems.push(`${label(el)} is ${Math.round(height)}px tall in a list, more than two ${Math.round(line)}px lines`);
      if (!titled(el, name) && cut(el)) problems.push(`${label(el)} is cut without the whole name in a tooltip`);
    }
  }

  for (const key of keys) {
    for (const el of holding(key)) {
      const copy = [...(el.parentElement?.querySelectorAll('button') ?? [])].some((b: any) => /^Copy/.test(textOf(b)));
      if (cut(el) && !titled(el, key) && !copy) problems.push(`${label(el)} is cut, and neither a tooltip nor a copy button holds the whole key`);
      const inside = linesOf(el).slice(0, -1).filter((line) => !/[-_.,]$/.test(line));
      if (inside.length > 0) problems.push(`${label(el)} breaks inside a word: “${inside[0]}”`);
    }
  }

  for (const select of doc.querySelectorAll('select')) {
    if (!shown(select) || screenReaderOnly(select)) continue;
    const s = style(select);
    const text = select.selectedOptions[0]?.textContent ?? '';
    const pen = doc.createElement('canvas').getContext('2d');
    pen.font = s.font;
    const room = select.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight) - SELECT_ARROW;
    if (pen.measureText(text).width > room + 1 && !titled(select, text)) problems.push(`the select ${label(select)} cuts its choice “${text}”`);
  }
  return problems;
}
