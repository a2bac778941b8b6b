import { describe, expect, it } from "vitest";
import { expiryInputFromForm, parseUtcDateTime, plainExpiryError } from "@/lib/dashboard/expiry-form";
import { countdownStepMs, describeExpiry, describeExpiryBriefly, describeSpan } from "@/lib/dashboard/expiry-wording";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { resolveExpiry } from "@/lib/drops/expiry";
import { ApiError, isApiError } from "@/lib/errors";

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const AT = Date.UTC(2026, 10, 21, 12, 0, 0);

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

function refusal(run: () => unknown): ApiError {
  try {
    run();
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("expiry wording", () => {
  it("rounds to the nearest unit and picks the unit after rounding", () => {
    expect(describeSpan(300)).toBe("1 second");
    expect(describeSpan(1 * SECOND)).toBe("1 second");
    expect(describeSpan(59 * SECOND)).toBe("59 seconds");
    expect(describeSpan(59.6 * SECOND)).toBe("1 minute");
    expect(describeSpan(59 * MINUTE + 40 * SECOND)).toBe("1 hour");
    expect(describeSpan(3 * HOUR - 1)).toBe("3 hours");
    expect(describeSpan(23.6 * HOUR)).toBe("1 day");
    expect(describeSpan(7 * DAY - 5 * SECOND)).toBe("7 days");
    expect(describeSpan(-2 * HOUR)).toBe("2 hours");
  });

  it("says when a link expires, and what an expired one does", () => {
    expect(describeExpiry(AT + 3 * DAY, 7, AT)).toEqual({ relative: "Expires in 3 days", absolute: "2026-11-24 12:00 UTC", consequence: "" });
    const expired = describeExpiry(AT - 2 * HOUR, 7, AT);
    expect(expired.relative).toBe("Expired 2 hours ago");
    expect(expired.consequence).toBe("The link answers “410 Gone”; the drop will be deleted after 2026-11-28 10:00 UTC unless you set a new expiry.");
    // Expired from the expiry's very millisecond on, as the serving paths decide.
    expect(describeExpiry(AT, 7, AT)).toMatchObject({ relative: "Expired just now" });
  });

  it("words the list compactly", () => {
    expect(describeExpiryBriefly(AT + 30 * DAY, AT)).toBe("in 30 days");
    expect(describeExpiryBriefly(AT - SECOND, AT)).toBe("Expired");
  });

  it("ticks every second within the hour, either side of the expiry, and every minute otherwise", () => {
    expect(countdownStepMs(AT + 59 * MINUTE, AT)).toBe(SECOND);
    expect(countdownStepMs(AT - 10 * MINUTE, AT)).toBe(SECOND);
    expect(countdownStepMs(AT + 2 * HOUR, AT)).toBe(MINUTE);
  });
});

describe("the expiry form's PATCH body", () => {
  it("sends presets as ttl_seconds, for the server's clock to place", () => {
    expect(expiryInputFromForm(form({ expiry: "1h" }))).toEqual({ ttl_seconds: 3600 });
    expect(expiryInputFromForm(form({ expiry: "30d", custom_local: "2030-01-01T00:00" }))).toEqual({ ttl_seconds: 30 * 86_400 });
  });

  it("sends a custom time as the instant the browser computed, or reads it as UTC without one", () => {
    const typed = "2027-03-28T02:30";
    expect(expiryInputFromForm(form({ expiry: "custom", custom_local: typed, custom_ms: "1806197400000" }))).toEqual({ expires_at: 1806197400000 });
    expect(expiryInputFromForm(form({ expiry: "custom", custom_local: typed, custom_ms: "" }))).toEqual({ expires_at: Date.UTC(2027, 2, 28, 2, 30) });
    expect(expiryInputFromForm(form({ expiry: "custom", custom_local: "2027-03-28T02:30:15" }))).toEqual({ expires_at: Date.UTC(2027, 2, 28, 2, 30, 15) });
  });

  it("refuses in plain words what it cannot use", () => {
    const cases: { fields: Record<string, string>; message: string }[] = [
      { fields: {}, message: DASHBOARD_MESSAGES.expiryChoiceMissing },
      { fields: { expiry: "2y" }, message: DASHBOARD_MESSAGES.expiryChoiceMissing },
      { fields: { expiry: "custom", custom_local: " " }, message: DASHBOARD_MESSAGES.expiryCustomMissing },
      { fields: { expiry: "custom", custom_local: "next tuesday" }, message: DASHBOARD_MESSAGES.expiryCustomInvalid },
      { fields: { expiry: "custom", custom_local: "2027-02-30T10:00" }, message: DASHBOARD_MESSAGES.expiryCustomInvalid },
    ];
    for (const { fields, message } of cases) {
      expect(refusal(() => expiryInputFromForm(form(fields))).message, JSON.stringify(fields)).toBe(message);
    }
  });

  it("reads only moments that exist", () => {
    expect(parseUtcDateTime("2028-02-29T23:59:59")).toBe(Date.UTC(2028, 1, 29, 23, 59, 59));
    for (const value of ["2027-02-29T10:00", "2027-04-31T10:00", "2027-01-01T24:00", "2027-01-01T10:60", "2027-01-01 10:00", ""]) {
      expect(parseUtcDateTime(value), value).toBeNull();
    }
  });

  it("rewords the service's time checks, and leaves its other errors alone", () => {
    const past = refusal(() => resolveExpiry({ expires_at: AT - 1 }, AT));
    expect((plainExpiryError(past) as ApiError).message).toBe(DASHBOARD_MESSAGES.expiryInPast);
    const tooFar = refusal(() => resolveExpiry({ expires_at: AT + 11 * 365 * DAY }, AT));
    expect((plainExpiryError(tooFar) as ApiError).message).toBe(DASHBOARD_MESSAGES.expiryTooFar);
    const other = new ApiError("daily_quota_exceeded", "Daily write quota reached.");
    expect(plainExpiryError(other)).toBe(other);
  });
});
