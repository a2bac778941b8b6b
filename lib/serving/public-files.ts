// The files of public/, which Next serves as they are. Next answers any other method than GET or HEAD
// on one with a bare 500, so proxy.ts refuses those first, in the Error shape.
export const PUBLIC_FILES = ["apple-touch-icon.png", "favicon.ico", "icon-192.png", "icon-512.png", "icon.svg", "robots.txt", "site.webmanifest"] as const;

export const PUBLIC_FILE_METHODS = ["GET", "HEAD"];

const PUBLIC_FILE_PATHS = new Set<string>(PUBLIC_FILES.map((name) => `/${name}`));

export function isPublicFilePath(pathname: string): boolean {
  return PUBLIC_FILE_PATHS.has(pathname);
}

/**
 * Request headers Next's static file server cannot be given: it answers its own 412 (a failed If-Match
 * or If-Unmodified-Since) and 416 (an unsatisfiable Range) with a bare 500. Without them these small
 * files are served whole, as a server may always answer a Range (RFC 9110 §14.2); their ETags are weak,
 * so no If-Match but `*` could hold anyway.
 */
export const PUBLIC_FILE_UNSERVED_HEADERS = ["range", "if-range", "if-match", "if-unmodified-since"];
