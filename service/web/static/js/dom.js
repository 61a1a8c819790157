// A tiny hyperscript helper: the page builds its DOM with h() instead of a framework (no build step).

/** Create an element: h("button", {class: "x", onclick: f}, "text", child, [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else if (key === "style" && typeof value === "object") {
      // Custom properties (--hue) only take effect through setProperty.
      for (const [prop, v] of Object.entries(value)) el.style.setProperty(prop, String(v));
    }
    else if (key in el && typeof value !== "string") el[key] = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  // A box that scrolls sideways (a wide table on a phone) must take keyboard focus, or a keyboard cannot scroll it.
  if (/(^|\s)scroll-x(\s|$)/.test(el.className) && !el.hasAttribute("tabindex")) el.tabIndex = 0;
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : String(child));
  }
}

/** Replace an element's children. */
export function mount(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** Turn "black-widow" or "w:black-widow" into "Black widow". */
export function pretty(name) {
  if (name === null || name === undefined) return "—";
  if (typeof name !== "string") return String(name);
  const text = String(name).replace(/^[wb]:/, "").replace(/[-_]/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A labelled section with a heading. */
export function section(title, ...children) {
  return h("section", {class: "panel"}, h("h2", {}, title), ...children);
}

/** Count equal items: ["a","b","a"] -> [["a",2],["b",1]] in first-seen order. */
export function tally(items) {
  const counts = new Map();
  for (const item of items) counts.set(item, (counts.get(item) || 0) + 1);
  return [...counts.entries()];
}
