// What a response format is: its `format=` name, media types, OpenAPI description and writer, in one object.

import type { Json } from '../../params/declare.js';
import type { Reply } from '../../route.js';
import type { BodyPart } from '../../serialise/assemble.js';
import type { RowCaches, Shape } from '../../shapes/shape.js';

/** A body as it leaves: text, bytes, or pieces the server joins in a reused buffer (`serialise/assemble.ts`). */
export type Body = string | Buffer | BodyPart[];

/**
 * One way an answer leaves. The registry (`index.ts`) lists every format; negotiation, the
 * `format=` parameter, rendering, the 406 checks and the OpenAPI document are all read from
 * it, so a format is declared once.
 */
export interface ResponseFormat<N extends string = string> {
  /** The `format=` value. */
  readonly name: N;
  /** The Content-Type of its answers, also the media type it is documented under. */
  readonly contentType: string;
  /** Media types (lower case, no parameters) that select it in `Accept`, its own first. */
  readonly mediaTypes: readonly string[];
  /** What the `format=` parameter's description says of it in parentheses: its media type and any limit. */
  readonly paramDoc: string;
  /** The 406 detail when answers of `shape` do not come in this format, or null when they do. */
  refusal(shape: Shape<unknown>): string | null;
  /** The Media Type Object of a 200 of `shapes` (a route's one, or its several) in this format; `schema` is their JSON Schema (`$ref`s), `examples` a JSON answer of each. */
  openApi(shapes: readonly Shape<unknown>[], schema: Json, examples: readonly unknown[]): Json;
  /**
   * The body of `reply` (the caller has checked `refusal`), with `rows` the rendered rows of the
   * reply's Dataset. A Buffer body may be a view of a buffer the next write of the same format
   * reuses: send, compress or copy it before then.
   */
  write(reply: Reply, rows: RowCaches): Body;
}
