// A bounded memo: values worked out from a request's shape (a screen's row columns), kept by a text
// key; past `limit` keys it starts over, as the keys come from clients.

export class Memo<T> {
  private readonly values = new Map<string, T>();

  constructor(private readonly limit: number) {}

  /** The value kept under `key`, or `make`'s (kept from now on). */
  of(key: string, make: () => T): T {
    let value = this.values.get(key);
    if (value === undefined) {
      value = make();
      if (this.values.size >= this.limit) this.values.clear();
      this.values.set(key, value);
    }
    return value;
  }
}
