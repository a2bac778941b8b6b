// Opens a URL in the person's browser, when there is one: $BROWSER if set, else the platform's opener.
// On Linux without a display (a server, a container, CI) there is none, and the URL printed is enough.
import { spawn } from "node:child_process";

function opener(url: string): [string, string[]] | null {
  if (process.env.BROWSER) return [process.env.BROWSER, [url]];
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", '""', url.replace(/&/g, "^&")]];
  if (process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return ["xdg-open", [url]];
  return null;
}

/** Whether a browser was asked to open `url`; failing to start one is not an error. */
export function openInBrowser(url: string): boolean {
  const command = opener(url);
  if (!command) return false;
  try {
    const child = spawn(command[0], command[1], { stdio: "ignore", detached: true });
    child.on("error", () => {});
    child.unref();
    return true;
  } catch {
    return false;
  }
}
