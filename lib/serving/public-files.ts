// The files of public/, which Next serves as they are. Next answers any other method than GET or HEAD
// on one with a bare 500, so proxy.ts refuses those first, in the Error shape.
export const PUBLIC_FILES = ["apple-touch-icon.png", "favicon.ico", "icon-192.png", "icon-512.png", "icon.svg", "robots.txt", "site.webmanifest"] as const;

export const PUBLIC_FILE_METHODS = ["GET", "HEAD"];

const PUBLIC_FILE_PATHS = new Set<string>(PUBLIC_FILES.map((name) => `/${name}`));

export function isPublicFilePath(pathname: string): boolean {
  return PUBLIC_FILE_PATHS.has(pathname);
}
