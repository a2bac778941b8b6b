import { readJsonBody } from "@/lib/api/body";
import { jsonResponse, methodsNotServedAt } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { getNotificationSettings, setCommentNotifications, toNotificationSettingsJson } from "@/lib/notifications/settings";
import { parseInput } from "@/lib/schemas/errors";
import { patchNotificationSettingsBodySchema } from "@/lib/schemas/notifications";

export const dynamic = "force-dynamic";

export const GET = withToken("getNotificationSettings", async ({ caller }) => jsonResponse(toNotificationSettingsJson(await getNotificationSettings(caller.userId))));

export const PATCH = withToken("updateNotificationSettings", async ({ request, caller }) => {
  const patch = parseInput(patchNotificationSettingsBodySchema, await readJsonBody(request));
  if (patch.comments !== undefined) await setCommentNotifications(caller.userId, patch.comments);
  return jsonResponse(toNotificationSettingsJson(await getNotificationSettings(caller.userId)));
});

export const { POST, PUT, DELETE } = methodsNotServedAt("/api/me/notifications");
