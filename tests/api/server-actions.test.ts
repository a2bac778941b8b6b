// Server actions are public endpoints: anyone can post to them by hand, with any arguments in place of
// the form the page would send. Such a request must be refused like any bad input, never crash into a 500.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app";
import { serverActionIds, signInAs } from "../helpers/session";

let app: TestApp;
let session: string;
let slug: string;
const actions = serverActionIds();

beforeAll(async () => {
  app = await startApp();
  const token = await app.createToken("actions");
  session = await signInAs(app, "actions");
  slug = (await app.api("/api/drops", { method: "POST", token, body: { title: "t", html: "<p>x</p>" } })).body.slug;
});
afterAll(async () => app?.stop());

/**
 * Posts React's encoding of an argument list as a multipart form (the root at field "0"), as Next's
 * client does for a form action; server.ts refuses action bodies that are not forms before Next reads them.
 */
function callAction(path: string, name: string, args: string, cookie?: string): Promise<Response> {
  const headers: Record<string, string> = { "next-action": actions[name]!, accept: "text/x-component" };
  if (cookie) headers.cookie = cookie;
  const body = new FormData();
  body.append("0", args);
  return fetch(`http://127.0.0.1:${app.env.PORT}${path}`, { method: "POST", headers, body, redirect: "manual" });
}

// No form at all, and a string where the form belongs.
const ARGUMENTS = ["[]", '["$undefined","not a form"]'];

describe("server actions called without a form", () => {
  const dashboardActions = ["editDropAction", "setPasscodeAction", "setExpiryAction", "deleteVersionAction", "deleteDropAction", "revokeTokenAction", "setCommentPolicyAction", "setIndexableAction", "resolveCommentAction", "replyToCommentAction", "deleteCommentAction"];

  for (const name of dashboardActions) {
    for (const args of ARGUMENTS) {
      it(`${name} with ${args} is refused without a 5xx`, async () => {
        const response = await callAction(`/dashboard/drops/${slug}`, name, args, session);
        expect(response.status).toBeLessThan(500);
        expect(await response.text()).toContain("The form was not sent as the page sends it");
      });
    }
  }

  for (const name of ["approveDeviceAction", "denyDeviceAction"]) {
    for (const args of ARGUMENTS) {
      it(`${name} with ${args} is refused without a 5xx`, async () => {
        const response = await callAction("/verify", name, args, session);
        expect(response.status).toBeLessThan(500);
      });
    }
  }

  it("logged no error thrown by the actions", () => {
    expect(app.logs()).not.toMatch(/app\/(dashboard|verify)\/actions\.ts|dashboard action failed/);
  });
});
