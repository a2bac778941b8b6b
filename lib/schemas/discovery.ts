import { z } from "zod";

export const onboardJsonSchema = z.object({
  instructions: z.string().describe("The onboarding guide, in Markdown (the default representation of /api/onboard)."),
  public_url: z.url().describe("Base URL of this service; every path in the guide is relative to it."),
});

export type OnboardJson = z.infer<typeof onboardJsonSchema>;

const dependencyUp = z.literal("ok").describe("It answered within the check's deadline.");

export const healthSchema = z.object({
  status: z.literal("ok").describe("This instance can serve: every dependency below answered."),
  database: dependencyUp.describe("The database (SQLite or PostgreSQL) answered `SELECT 1`."),
  redis: dependencyUp.optional().describe("Redis or Upstash, the rate-limit store, answered PING; absent when the limits are kept in the database."),
});
export type Health = z.infer<typeof healthSchema>;
