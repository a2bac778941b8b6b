import type { Metadata } from "next";
import { requireSessionUser } from "@/lib/auth/session";
import { dashboardNotice } from "@/lib/dashboard/messages";
import { WEBHOOKS_PATH } from "@/lib/dashboard/webhook-form";
import { WEBHOOK_LIMITS } from "@/lib/schemas/webhooks";
import { listDeliveries, listWebhooks } from "@/lib/webhooks/endpoints";
import styles from "../dashboard.module.css";
import { NewWebhookForm } from "../ui/new-webhook-form";
import { Notice } from "../ui/notice";
import { WebhookCard } from "../ui/webhook-card";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Webhooks" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function WebhooksPage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireSessionUser(WEBHOOKS_PATH);
  const webhooks = await listWebhooks(user.userId);
  const logs = await Promise.all(webhooks.map((webhook) => listDeliveries(user.userId, webhook.id)));
  return (
    <main>
      <h1>Webhooks</h1>
      <p className={styles.muted}>
        htmldrop tells your endpoints what happens to your drops: a new version, a comment, a change of who may open one. Each delivery is signed as Standard
        Webhooks says and retried for about a day; an endpoint that fails all that time is disabled until you enable it again.
      </p>
      <Notice message={dashboardNotice((await searchParams).notice)} />
      <NewWebhookForm dropsMax={WEBHOOK_LIMITS.drops} />
      {webhooks.map((webhook, index) => (
        <WebhookCard key={webhook.id} webhook={webhook} deliveries={logs[index]!} />
      ))}
    </main>
  );
}
