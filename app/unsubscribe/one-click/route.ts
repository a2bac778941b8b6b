import { unsubscribeWithToken } from "@/lib/notifications/settings";
import { UNSUBSCRIBE_PATH } from "@/lib/notifications/urls";

// RFC 8058's one-click unsubscribe: the List-Unsubscribe URL of every notification email. A mail client
// POSTs `List-Unsubscribe=One-Click` to it, without cookies; the confirmation page's button posts here
// too and is sent back to that page. A GET (a link scanner, an old client) only shows the page.
export const dynamic = "force-dynamic";

function plain(status: number, text: string): Response {
  return new Response(text, { status, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
}

function confirmationPage(request: Request): Response {
  const url = new URL(request.url);
  return new Response(null, { status: 303, headers: { location: `${UNSUBSCRIBE_PATH}${url.search}`, "cache-control": "no-store" } });
}

export async function POST(request: Request): Promise<Response> {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!(await unsubscribeWithToken(token))) return plain(404, "This unsubscribe link is not valid.");
  // A person's browser (the page's button) sees the page again, which now says it is done.
  if (request.headers.get("sec-fetch-mode") === "navigate" || (request.headers.get("accept") ?? "").includes("text/html")) return confirmationPage(request);
  return plain(200, "Unsubscribed: no more comment emails for this account.");
}

export function GET(request: Request): Response {
  return confirmationPage(request);
}
