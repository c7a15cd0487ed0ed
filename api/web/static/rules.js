// The rules page (docs/rules.md, told briefly): its text is in the page's HTML as keys of the
// catalogues, so it reads in English and in Dutch alike.
import { t } from "/assets/common.js";

document.title = `${t("rules.title")} · ${t("site.name")}`;
