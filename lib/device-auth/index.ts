export { approveDeviceAuth, type ApproveOutcome } from "./approve";
export { normalizeUserCode } from "./codes";
export { denyDeviceAuth, type DenyOutcome } from "./deny";
export { describeDeviceAuth, type DeviceAuthView } from "./describe";
export { DEVICE_AUTH_MESSAGES, isDeviceAuthMessageKey, refusalNotice, type DeviceAuthMessageKey } from "./messages";
export { pollDeviceAuth } from "./poll";
export { startDeviceAuth } from "./start";
