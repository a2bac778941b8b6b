"use server";

// The dashboard's expiry write, apart from actions.ts: an expired drop's viewer offers it to its owner,
// and a page takes into its code every module of each "use server" file it uses.
import { patchDrop } from "@/lib/drops";
import { dashboardAction } from "@/lib/dashboard/action";
import { expiryInputFromForm, plainExpiryError } from "@/lib/dashboard/expiry-form";
import { ok, toFormState } from "@/lib/dashboard/form-state";
import { DASHBOARD_MESSAGES } from "@/lib/dashboard/messages";
import { dashboardDropPath } from "@/lib/dashboard/paths";
import { formText as text } from "@/lib/dashboard/text-upload";
import { viewerPath } from "@/lib/drops/public-urls";

export const setExpiryAction = dashboardAction(
  async (owner, form) => {
    const slug = text(form, "slug");
    const remove = text(form, "intent") === "remove";
    await patchDrop(owner, slug, remove ? { expires_at: null } : expiryInputFromForm(form));
    const revalidate = [dashboardDropPath(slug)];
    // From an expired drop's viewer: the drop itself, now that it opens again.
    if (text(form, "then") === "viewer") return { redirectTo: viewerPath(slug), revalidate };
    return { state: ok(remove ? DASHBOARD_MESSAGES.expiryRemoved : DASHBOARD_MESSAGES.expirySet), revalidate };
  },
  (error) => toFormState(plainExpiryError(error)),
);
