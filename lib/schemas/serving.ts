import { z } from "zod";

/** A version number as a form posts it; anything else is left out (the page then shows the latest). */
const postedVersion = z
  .string()
  .regex(/^[1-9][0-9]{0,8}$/)
  .optional()
  .catch(undefined);

/** The gate's form post (application/x-www-form-urlencoded or multipart), from the viewer or the compare page. */
export const unlockFormSchema = z.object({
  passcode: z.string().max(1024).describe("The passcode the owner shared"),
  v: postedVersion.describe("Version to show after unlocking"),
  from: postedVersion.describe("The compare page's older version, to return to it after unlocking"),
  to: postedVersion.describe("The compare page's newer version, to return to it after unlocking"),
  page: z.enum(["viewer", "compare"]).catch("viewer").describe("The page the gate was shown on, and the one to return to"),
});


/** GET /p/<slug>/live.json: what an open viewer polls to learn of a new version. */
export const liveVersionSchema = z
  .object({
    latest_version: z.number().int().min(1).describe("The number of the drop's latest version: what /p/<slug> without `v` shows."),
  })
  .describe("LiveVersion");

export type LiveVersionJson = z.infer<typeof liveVersionSchema>;
