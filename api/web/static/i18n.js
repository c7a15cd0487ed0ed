// The client's languages (docs/api-web.md, "The web client"): English and Dutch, the two languages
// the rules are written in. Every visible string comes from one catalogue per language
// (/assets/i18n/{lang}.json, checked key for key by a test). The language is the one chosen on
// a page and remembered in this browser, else the first of the browser's languages
// (navigator.languages, what it sends as Accept-Language) the client speaks, else English.
// Problems from the API keep their English detail; a code the client knows gets its own words.

// LANGS are the languages the client speaks, each named in itself.
export const LANGS = Object.freeze([["en", "English"], ["nl", "Nederlands"]]);

// Not under "allfives:", where the seats and the player are kept (each a JSON value).
const STORE = "allfives-lang";

// chooseLang answers the remembered choice, else the browser's first language spoken here.
function chooseLang() {
  let saved = null;
  try {
    saved = localStorage.getItem(STORE);
  } catch {
    saved = null;
  }
  if (LANGS.some(([l]) => l === saved)) return saved;
  for (const tag of navigator.languages || [navigator.language || ""]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.some(([l]) => l === base)) return base;
  }
  return "en";
}

// lang is the page's language.
export const lang = chooseLang();

async function load(l) {
  try {
    const res = await fetch(`/assets/i18n/${l}.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};
  }
}

// English stands in for a key the page's catalogue lacks (the catalogue test keeps it from
// happening); a key in neither is shown as itself, so that a slip is seen, never hidden.
const [catalogue, english] = await Promise.all([load(lang), lang === "en" ? null : load("en")]);

// t says a key in the page's language, each {name} replaced by vars[name].
export function t(key, vars = {}) {
  const s = Object.hasOwn(catalogue, key) ? catalogue[key] : english && Object.hasOwn(english, key) ? english[key] : key;
  return s.replace(/\{(\w+)\}/g, (m, name) => (Object.hasOwn(vars, name) ? String(vars[name]) : m));
}

// tn says a key that depends on a count: key.one for exactly one, key.other for any other;
// vars.n is the count.
export function tn(key, n, vars = {}) {
  return t(`${key}.${n === 1 ? "one" : "other"}`, { ...vars, n });
}

// has says whether the catalogue has a key (a problem code the client has words for).
export function has(key) {
  return Object.hasOwn(catalogue, key);
}

// locale is the page's language for dates and numbers.
export const locale = lang === "nl" ? "nl-NL" : "en-GB";

// when writes a moment in the page's language; an unreadable one is "".
export function when(t0, dateOnly = false) {
  const d = new Date(t0);
  if (Number.isNaN(d.getTime())) return "";
  return dateOnly ? d.toLocaleDateString(locale) : d.toLocaleString(locale);
}

// translatePage fills the page's own HTML in its language: data-i18n names the key of an
// element's text, data-i18n-attr "attr:key;attr:key" the keys of its attributes.
export function translatePage(root = document) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of e.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":");
      if (attr && key) e.setAttribute(attr.trim(), t(key.trim()));
    }
  }
  document.documentElement.lang = lang;
}

// switcher puts the language choice in the page's header: a choice reloads the page in the
// other language and is remembered in this browser.
function switcher() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("lang")) return;
  const label = document.createElement("label");
  label.htmlFor = "lang";
  label.className = "visually-hidden";
  label.textContent = t("lang.label");
  const select = document.createElement("select");
  select.id = "lang";
  select.className = "lang";
  for (const [l, name] of LANGS) {
    const o = document.createElement("option");
    o.value = l;
    o.lang = l;
    o.textContent = name;
    o.selected = l === lang;
    select.append(o);
  }
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(STORE, select.value);
    } catch {
      // a browser that keeps nothing still switches, for this page
    }
    location.reload();
  });
  const box = document.createElement("span");
  box.className = "lang-box";
  box.append(label, select);
  header.append(box);
}

translatePage();
switcher();
