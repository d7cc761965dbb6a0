// What a refused API request says to a person, in the page's language: the translation of the
// refusal's code when the table knows it, else the server's message (asked for in our language),
// else a sentence chosen by the HTTP status (a proxy's or uvicorn's plain-text 429/503).
import { t } from "./i18n.js";

const BY_CODE = {
  too_many_tables: "You have created too many tables: wait a minute and try again.",
  server_full: "The server has as many tables as it can take: try again later.",
  busy: "The server is busy: try again in a moment.",
};
const BY_STATUS = { 429: BY_CODE.too_many_tables, 503: BY_CODE.busy };

/** ``{code, message}`` of a refused response (its body read once, JSON or not). */
export async function refusal(r) {
  let body = null;
  try { body = await r.json(); } catch { body = null; }
  const code = body && typeof body.code === "string" ? body.code : "";
  if (BY_CODE[code]) return { code, message: t(BY_CODE[code]) };
  if (body && typeof body.message === "string" && body.message) return { code, message: body.message };
  return { code: code || String(r.status), message: t(BY_STATUS[r.status] || "The server is busy: try again in a moment.") };
}
