import { z } from "zod";

export const onboardJsonSchema = z.object({
  instructions: z.string().describe("The onboarding guide, in Markdown (the default representation of /api/onboard)."),
  public_url: z.url().describe("Base URL of this service; every path in the guide is relative to it."),
});

export type OnboardJson = z.infer<typeof onboardJsonSchema>;
