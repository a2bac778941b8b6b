// The words of the sharing model, defined once: the config, the schemas and the decision read them here.

/** Who may open a drop: anyone with its URL, the instance's (or its org's) signed-in people, or its list. */
export const DROP_ACCESS_LEVELS = ["public", "signed_in", "restricted"] as const;
export type DropAccess = (typeof DROP_ACCESS_LEVELS)[number];

/** What a person or team on a drop's list may do: open it, or also publish versions and change its settings. */
export const MEMBER_ROLES = ["viewer", "editor"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
