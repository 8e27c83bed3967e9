// Renders a response value as MessagePack: plain maps and arrays, in a buffer reused between calls.

import { Packr, RESET_BUFFER_MODE } from 'msgpackr';

/** Plain msgpack maps and arrays (no msgpackr record extension), so any msgpack client reads them. */
const packr = new Packr({ useRecords: false, variableMapSize: true });

/**
 * `value` as msgpack, as a view of the packer's buffer: valid until the next call, which
 * writes over it (no allocation per answer, so no garbage for V8 to collect later).
 */
export const msgpackView = (value: unknown): Buffer => packr.pack(value, RESET_BUFFER_MODE);
