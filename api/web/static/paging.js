// Lists cut into pages (docs/api-web.md, "The web client"): a list shows its first page, and a button
// below it brings the next one, following the API's next_cursor, until there is none.
import { el, t, problemText } from "/assets/common.js";

// pagedList fills ul with pages: fetch(cursor) answers {matches, next_cursor}, draw(item) is
// one row, and the "Older matches" button (id moreId) brings the next page. keep(item) may
// leave items out (those another list shows). It answers {reload}, which starts again.
export function pagedList(ul, fetch, draw, moreId, keep = () => true) {
  const more = el("button", { type: "button", id: moreId, class: "more", hidden: true, text: t("paging.older") });
  ul.after(more);
  let next = "";
  let shown = 0;
  let round = 0;
  const page = async (first) => {
    const mine = first ? ++round : round;
    more.disabled = true;
    try {
      const res = await fetch(first ? "" : next);
      if (mine !== round) return;
      const items = res.matches.filter(keep);
      if (first) {
        ul.replaceChildren();
        shown = 0;
      }
      ul.append(...items.map(draw));
      shown += items.length;
      next = res.next_cursor || "";
      if (!shown && !next) ul.replaceChildren(el("li", { class: "muted", text: t("none_yet") }));
      more.hidden = !next;
      ul.dataset.loaded = "1";
    } catch (err) {
      if (mine === round) ul.replaceChildren(el("li", { class: "bad", text: problemText(err) }));
    } finally {
      more.disabled = false;
    }
  };
  more.addEventListener("click", () => page(false));
  return { reload: () => page(true) };
}
