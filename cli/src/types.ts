// The parts of the API's JSON this command reads (the OpenAPI document at /openapi.json has them all).
// Written out here rather than imported: the command runs without the server's code.

export type Drop = {
  slug: string;
  title: string;
  description?: string;
  url: string;
  raw_url: string;
  locked: boolean;
  latest_version: number;
  view_count: number;
  metadata: Record<string, string>;
  created_at: number;
  updated_at: number;
  expires_at?: number;
  expired?: boolean;
  comments?: string;
  access?: string;
};

export type DropList = { data: Drop[]; pagination: { page: number; total_pages: number; total_items: number } };

export type VersionItem = { version: number; size_bytes: number; has_context: boolean; created_at: number };

export type TokenSummary = {
  id: string;
  label: string | null;
  created_at: number;
  last_used_at: number | null;
  scopes: string[];
  drops: string[] | null;
  expires_at: number | null;
};

export type Me = { user_id: string; created_at: number | null; drop_count: number; token: TokenSummary | null };

export type TokenItem = TokenSummary & { revoked_at: number | null; kind: string };

export type CreatedToken = TokenSummary & { token: string };

export type DeviceStart = { code: string; verification_url: string; poll_token: string; expires_in: number; poll_interval: number };

export type DevicePoll = { status: string; api_token?: string; user_id?: string };

export type Comment = {
  id: string;
  version: number;
  body: string;
  quote?: string;
  author: { name: string; kind: string };
  created_at: number;
  resolved_at?: number;
  reply_to?: string;
};

export type CommentList = { data: Comment[]; pagination: { page: number; total_pages: number } };

export type Stats = {
  days: number;
  from: string;
  to: string;
  total_views: number;
  view_count: number;
  daily: { date: string; views: number }[];
  versions: { version: number; views: number }[];
};

export type PatternSummary = { name: string; title: string | null; description: string; source: string; has_template: boolean };

export type Pattern = PatternSummary & { markdown: string; template: string | null };
