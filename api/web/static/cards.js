// Wide tables on a phone (docs/api-web.md, "The web client"): one table component for every
// page. cardify labels each cell of a table's body with its column's name (data-label) and
// marks the table "cards", which the style sheet lays out, 40rem wide or less, as one card a
// row with each figure beside its column's name: every figure of every row on screen, nothing
// scrolled sideways, neither the page nor the table. Wider, it stays a table of columns.
export function cardify(table) {
  const names = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
  for (const tr of table.querySelectorAll("tbody tr")) {
    [...tr.children].forEach((cell, i) => {
      if (names[i] && cell.tagName === "TD" && !cell.dataset.label) cell.dataset.label = names[i];
    });
  }
  table.classList.add("cards");
  return table;
}
