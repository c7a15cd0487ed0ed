// The form that organises a tournament (docs/api-web.md, "The web client"): a signed-in player
// names it and chooses its tables, pairing, deals, target and clock; the tournament's own page
// opens, where bots and players are entered and the organiser starts it.
import { api, showError } from "/assets/common.js";
import { me } from "/assets/player.js";
import { formatName } from "/assets/ratings.js";

const $ = (sel) => document.getElementById(sel);

// request is the form as the API's create request: a blank number is left out (the default).
function request() {
  const num = (id) => ($(id).value.trim() === "" ? undefined : Number($(id).value));
  const swiss = $("t-system").value === "swiss";
  return {
    name: $("t-name-input").value.trim(), format: $("t-format").value, system: $("t-system").value,
    rounds: swiss ? num("t-rounds") : undefined, duplicate: $("t-duplicate").checked, rated: $("t-rated").checked,
    target: num("t-target"), turn_seconds: num("t-clock"),
  };
}

// setupCreate shows the form to a signed-in player (else where to sign in), and creates.
export function setupCreate() {
  const p = me();
  $("t-create").hidden = !p;
  $("t-create-signin").hidden = !!p;
  for (const o of $("t-format").options) o.textContent = formatName(o.value);
  const system = () => { $("t-rounds").disabled = $("t-system").value !== "swiss"; };
  $("t-system").addEventListener("change", system);
  system();
  $("t-create").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const button = $("t-create").querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const tv = await api("/api/v1/tournaments", { method: "POST", body: request(), token: me().key });
      location.assign(`/tournaments/${encodeURIComponent(tv.id)}`);
    } catch (err) {
      showError($("error"), err);
      button.disabled = false;
    }
  });
}
