import { MissingVersion } from "../../missing-version";

/**
 * The shared page's own 404, static: request headers would turn its cached page dynamic. proxy.ts sends
 * only an existing drop without a passcode here, so what is missing is the version.
 */
export default function SharedMissingVersion() {
  return <MissingVersion slug={null} />;
}
