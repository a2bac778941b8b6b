import { z } from "zod";

/** The gate's form post (application/x-www-form-urlencoded or multipart). */
export const unlockFormSchema = z.object({
  passcode: z.string().max(1024).describe("The passcode the owner shared"),
  v: z
    .string()
    .regex(/^[1-9][0-9]{0,8}$/)
    .optional()
    .catch(undefined)
    .describe("Version to show after unlocking"),
});

