// The dashboard's webhook forms: what "Add endpoint" posts, read with the same schema as POST /api/webhooks,
// and how one attempt reads in a form's live region.
import type { FormState } from "./form-state";
import { parseInput } from "@/lib/schemas/errors";
import { createWebhookBodySchema, type CreateWebhookInput, type DeliveryJson } from "@/lib/schemas/webhooks";
import { formText } from "./text-upload";

export const WEBHOOKS_PATH = "/dashboard/webhooks";

/** "Add endpoint"'s result: the secret, once. */
export type NewWebhookState = FormState & { created?: { id: string; url: string; secret: string } };

export function webhookRequestFromForm(form: FormData): CreateWebhookInput {
  const description = formText(form, "description").trim();
  return parseInput(createWebhookBodySchema, {
    url: formText(form, "url").trim(),
    events: form.getAll("events").filter((value) => typeof value === "string"),
    ...(description ? { description } : {}),
  });
}

/** "Answered 200 in 35 ms" or what went wrong, for the attempt a test or "send again" just made. */
export function describeAttempt(delivery: DeliveryJson): FormState {
  const last = delivery.log.at(-1);
  if (!last) return { status: "error", message: "Nothing was sent: the delivery is being sent already." };
  if (delivery.status === "succeeded") return { status: "ok", message: `Delivered: the endpoint answered ${last.status_code} in ${last.duration_ms} ms.` };
  return { status: "error", message: `Not delivered: ${last.error ?? `the endpoint answered ${last.status_code}`}.` };
}
