import { getServerSession } from "next-auth/next";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getAuthOptions } from "./next-auth";
import { signInPath } from "./paths";

export { signInPath, signOutPath } from "./paths";

export type SessionUser = { userId: string; login: string | null; provider: string };

const sessionUserSchema = z.object({ userId: z.string().min(1), login: z.string().nullable(), provider: z.string().min(1) });

/** The signed-in human of a server component or server action, or null. Pages only: the API reads bearer tokens. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(getAuthOptions());
  const parsed = sessionUserSchema.safeParse((session as { user?: unknown } | null)?.user);
  return parsed.success ? parsed.data : null;
}

/** For pages that need a human: sends anyone not signed in to the sign-in page, then back to `callbackPath`. */
export async function requireSessionUser(callbackPath: string): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(signInPath(callbackPath));
  return user;
}
