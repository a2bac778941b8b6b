"use server";

// The dashboard's webhook writes, each calling the lib service REST and MCP call (lib/webhooks/endpoints.ts)
// inside the skeleton every dashboard action shares.
import { dashboardAction } from "@/lib/dashboard/action";
import { ok, toFormState } from "@/lib/dashboard/form-state";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { describeAttempt, webhookErrorState, webhookRequestFromForm, WEBHOOKS_PATH, type NewWebhookState } from "@/lib/dashboard/webhook-form";
import { formText as text } from "@/lib/dashboard/text-upload";
import { parseInput } from "@/lib/schemas/errors";
import { deliveryIdSchema, webhookIdSchema } from "@/lib/schemas/webhooks";
import { createWebhook, deleteWebhook, retryDelivery, sendTestEvent, updateWebhook } from "@/lib/webhooks/endpoints";

const notFound = (error: unknown) => toFormState(error, DASHBOARD_MESSAGES.webhookNotFound);

/** "Add endpoint": the secret comes back in the form's state, shown once; a refusal names its field. */
export const createWebhookAction = dashboardAction<NewWebhookState>(async (owner, form) => {
  const created = await createWebhook(owner, webhookRequestFromForm(form));
  return { state: { ...ok(DASHBOARD_MESSAGES.webhookCreated), created: { id: created.id, url: created.url, secret: created.secret } }, revalidate: [WEBHOOKS_PATH] };
}, webhookErrorState);

export const testWebhookAction = dashboardAction(async (owner, form) => {
  const delivery = await sendTestEvent(owner, parseInput(webhookIdSchema, text(form, "id")));
  return { state: describeAttempt(delivery), revalidate: [WEBHOOKS_PATH] };
}, notFound);

export const retryDeliveryAction = dashboardAction(async (owner, form) => {
  const delivery = await retryDelivery(owner, parseInput(webhookIdSchema, text(form, "id")), parseInput(deliveryIdSchema, text(form, "delivery_id")));
  return { state: describeAttempt(delivery), revalidate: [WEBHOOKS_PATH] };
}, notFound);

export const enableWebhookAction = dashboardAction(async (owner, form) => {
  await updateWebhook(owner, parseInput(webhookIdSchema, text(form, "id")), { enabled: true });
  return { state: ok(DASHBOARD_MESSAGES.webhookEnabled), revalidate: [WEBHOOKS_PATH, "/dashboard"] };
}, notFound);

export const deleteWebhookAction = dashboardAction(async (owner, form) => {
  await deleteWebhook(owner, parseInput(webhookIdSchema, text(form, "id")));
  return { redirectTo: `${WEBHOOKS_PATH}?notice=webhookDeleted`, revalidate: ["/dashboard"] };
}, notFound);
