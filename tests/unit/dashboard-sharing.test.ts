// The Share card's rules: which access levels it offers, the badges drop lists show, and how one box
// takes a login or an email.
import { describe, expect, it } from "vitest";
import { addPersonBodyFromForm, inviteeFromText } from "@/lib/dashboard/sharing";
import { accessBadge, accessChoices } from "@/lib/dashboard/sharing-wording";

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

describe("access levels in the dashboard", () => {
  it("offers public only where the instance allows public drops", () => {
    expect(accessChoices(true).map((choice) => choice.value)).toEqual(["public", "signed_in", "restricted"]);
    expect(accessChoices(false).map((choice) => choice.value)).toEqual(["signed_in", "restricted"]);
  });

  it.each([
    [undefined, null],
    ["signed_in", "Signed-in"],
    ["restricted", "Restricted"],
  ] as const)("a drop whose access is %s carries the badge %s", (access, badge) => {
    expect(accessBadge(access)).toBe(badge);
  });
});

describe("adding a person", () => {
  it.each([
    ["pat", { login: "pat" }],
    ["  pat  ", { login: "pat" }],
    ["pat@example.com", { email: "pat@example.com" }],
  ])("reads %j as %j", (typed, invitee) => {
    expect(inviteeFromText(typed)).toEqual(invitee);
  });

  it("parses the form with the API's schema and says what is wrong as a sentence", () => {
    expect(addPersonBodyFromForm(form({ person: "pat", role: "editor" }))).toEqual({ login: "pat", role: "editor" });
    expect(() => addPersonBodyFromForm(form({ person: "not an@email", role: "viewer" }))).toThrow("Email must be an email address.");
    expect(() => addPersonBodyFromForm(form({ person: "pat", role: "owner" }))).toThrow("Role must be one of viewer, editor.");
  });
});
