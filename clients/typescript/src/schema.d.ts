// Generated from the service's OpenAPI document by openapi-typescript at build time: do not edit.
export interface paths {
  '/markets': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Overview of all markets
     * @description Per market (ashare, hkstock, usstock, crypto, indices, etfs in that order): symbol count, data rows and date range.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['listMarkets'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/macro': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Macroeconomic series (GDP, CPI & PPI, PMI)
     * @description Rows ordered by indicator (gdp, cpi_ppi, pmi) then date ascending; `data` maps series keys to numbers. In CSV each series key is a column. While rows remain, `Link: <…>; rel="next"` names the next page.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['listMacro'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/macro/indicators': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The macro indicators of the snapshot: series keys, units, dates and frequency
     * @description Every indicator the snapshot holds, in the order of `/macro` (gdp, cpi_ppi, pmi, then any other by name). `keys`: its series keys (the keys of `/macro` rows), the documented ones in their documented order, then any other ascending, each with its `unit`: `GDP_GDP` in 100 million CNY, `GDP_GDP_YOY`, `GDP_PRIMARY_YOY`, `GDP_SECONDARY_YOY` and `GDP_TERTIARY_YOY` in % (year on year); null for every other key (no unit documented). `start` and `end`: its first and last release date (a period-end day, YYYY-MM-DD). `frequency`: `monthly` when every two consecutive releases are one calendar month apart, `quarterly` when every two are three months apart, `irregular` otherwise (and with a single release). In CSV one line per series key, its indicator's columns repeated.
     *
     *     Charges no rows, and is served even when the daily quota is exhausted.
     */
    get: operations['listMacroIndicators'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/quota': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The calling key's plan and today's usage
     * @description `reset_at` is the next reset (00:00 in QUOTA_TZ). Internal keys answer `daily_quota` and `remaining` as null. One record, no rows: CSV is not offered (406).
     *
     *     Charges no rows, and is served even when the daily quota is exhausted.
     */
    get: operations['getQuota'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/symbols': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Search or list the symbols of a market
     * @description With `search`: exact code, then code prefix, then code substring, then name substring (case-insensitive), ties by symbol. Without: all symbols by symbol. While symbols remain, `Link: <…>; rel="next"` names the next page.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['listSymbols'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/calendar': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The market's trading days
     * @description Every day on which at least one symbol of the market has a K-line row, by date ascending, one row `{"date":"YYYY-MM-DD"}` per day. `total` counts the days of the window [`start`, `end`] before limit and offset; `offset` skips days forward from the window's earliest day. `total`, `count`, `limit` and `offset` count days. A market without rows answers `total` 0. While days remain, `Link: <…>; rel="next"` names the next page.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['getCalendar'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/actions/{symbol}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * One symbol's adjustment events (splits, dividends)
     * @description Each K-line row of the symbol whose `adj_factor` differs from the symbol's row before it, by date ascending: `date` is the row's day, `adj_factor` its cumulative adjustment factor and `prev_adj_factor` the one of the row before (as stored, dimensionless), `ratio` = adj_factor ÷ prev_adj_factor rounded half away from zero to 6 decimals (dimensionless: a 2-for-1 split shows 2, a cash dividend a little above 1). `start` and `end` select events by their day; the row before may lie before `start`. The symbol's first row is never an event. Not paged: every event of the range in one answer.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['getActions'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/klines/{symbol}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * K-lines of one symbol: daily rows or weekly to yearly bars
     * @description Rows by date ascending (bars with `period`). `total` counts the rows of the date range before limit and offset. While rows remain, `Link: <…>; rel="next"` names the next page (older rows when the window is anchored at its end, later rows with `start`).
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['getKlines'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/klines': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * K-lines of several symbols, or of a whole market on one day
     * @description With `symbols`: `data` is keyed by symbol (canonical codes) in request order; symbols that do not exist are listed in `missing` as given (404 when none exists). `limit` counts rows (or bars) per symbol. Without `symbols`, `date` asks for the cross-section: every symbol's row of that day (symbols without one are absent), ordered by symbol, paged by `limit` and `offset` with `Link: rel="next"` while rows remain, all fields unless `fields` narrows them, `adj=qfq` to each symbol's latest factor; the answer is `{"market","date","total","count","limit","offset","fields","data":[rows]}`. Without `symbols` and without `date` it is 400 naming `symbols`.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['getKlinesBatch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/export': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Whole-history export: K-lines of many symbols, streamed
     * @description K-line rows (or `period` bars) of the named symbols, or of every symbol of the market without `symbols`, in the date range, ordered by symbol then date, streamed as CSV (default), Arrow (an IPC stream, one record batch per symbol, the answer's figures in its metadata) or NDJSON (one JSON row per line), with `Content-Disposition: attachment`. Rows per call does not bound it; the daily quota does: the rows are counted before the first byte, an export larger than the key's rows left today is 429 `quota_exhausted` naming the count, and the whole export is charged when it starts (internal keys are unlimited). The answer is sent as the client reads it (memory stays flat whatever its size); a client that goes away ends it. Not compressed, not cached.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['exportKlines'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/detail/{symbol}': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Latest snapshot of one symbol
     * @description Columns in the order of the snapshot table; columns that do not apply to the market are null.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['getDetail'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/detail': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Latest snapshots of several symbols
     * @description `data` is keyed by symbol in request order; symbols that do not exist (or, with `as_of`, have no row by then) are listed in `missing` (404 when none exists).
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['getDetailBatch'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/{market}/screen': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Filter, sort and page the latest snapshots of one market
     * @description `total` counts all matches. Nulls sort last in both orders; ties by symbol ascending. Rows carry symbol, name, date, close, change_percent, the valuation, size and momentum columns, and any bounded or sort column. While matches remain, `Link: <…>; rel="next"` names the next page.
     *
     *     Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left.
     */
    get: operations['screen'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/healthz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness and loaded data version
     * @description Needs no key. 200 once a snapshot is loaded, 503 before and while draining.
     */
    get: operations['health'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/readyz': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Readiness (the same answer as /healthz)
     * @description Needs no key. 200 once a snapshot is loaded, 503 before and while draining.
     */
    get: operations['ready'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/livez': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Liveness: the process is up
     * @description Needs no key. 200 whenever the process can answer, draining included.
     */
    get: operations['live'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/version': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Service version, commit, Node.js and data version
     * @description Needs no key.
     */
    get: operations['version'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/metrics': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * Prometheus metrics
     * @description Needs no key; absent (404) when the server runs with METRICS=0. Requests by route, status and plan, latency histogram, rows served, answer-cache lookups, reloads, data version, event-loop delay, pool queue.
     */
    get: operations['metrics'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/openapi.json': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This OpenAPI document
     * @description Needs no key.
     */
    get: operations['openapi'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/schema.fbs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * The FlatBuffers schema of `format=flatbuffers` answers
     * @description Needs no key.
     */
    get: operations['flatbuffersSchema'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
  '/docs': {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    /**
     * This document rendered as a page (Swagger UI, served by the service itself: no CDN)
     * @description Needs no key.
     */
    get: operations['apiReference'];
    put?: never;
    post?: never;
    delete?: never;
    options?: never;
    head?: never;
    patch?: never;
    trace?: never;
  };
}
export type webhooks = Record<string, never>;
export interface components {
  schemas: {
    /** @description RFC 9457 problem details */
    Problem: {
      type: string;
      title: string;
      status: number;
      code: string;
      detail: string;
      param?: string;
      /** @description unknown_symbol: up to 3 existing codes the client may have meant, nearest first (possibly none). */
      suggestions?: string[];
      /** @description The request id (X-Request-Id) of this answer. */
      instance?: string;
    };
    Health: {
      status: string;
      data_version: string;
    };
    Markets: {
      count: number;
      data: {
        /**
         * @description Market, as in the path.
         * @enum {string}
         */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
        symbols: number;
        rows: number;
        /**
         * Format: date
         * @description YYYY-MM-DD
         */
        start_date: string | null;
        /**
         * Format: date
         * @description YYYY-MM-DD
         */
        end_date: string | null;
      }[];
    };
    Symbols: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      total: number;
      count: number;
      limit: number;
      offset: number;
      data: {
        symbol: string;
        name: string | null;
      }[];
    };
    Calendar: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      total: number;
      count: number;
      limit: number;
      offset: number;
      data: {
        /**
         * Format: date
         * @description YYYY-MM-DD
         */
        date: string;
      }[];
    };
    Actions: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      symbol: string;
      count: number;
      data: {
        /**
         * Format: date
         * @description YYYY-MM-DD
         */
        date: string;
        /** @description The row's adj_factor, as stored. */
        adj_factor: number;
        /** @description The symbol's adj_factor on its trading day before. */
        prev_adj_factor: number;
        /** @description adj_factor ÷ prev_adj_factor, rounded half away from zero to 6 decimals. */
        ratio: number;
      }[];
    };
    Klines: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      symbol: string;
      count: number;
      total: number;
      offset: number;
      limit: number;
      fields: ('symbol' | 'date' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount' | 'adj_factor')[];
      data: {
        /** @description Symbol code, canonical case. */
        symbol: string;
        /**
         * Format: date
         * @description Trading day, YYYY-MM-DD.
         */
        date: string;
        /** @description Opening price, local currency (adjusted as `adj` asks, 4 decimals). */
        open?: number | null;
        /** @description Highest price, local currency (adjusted as `adj` asks). */
        high?: number | null;
        /** @description Lowest price, local currency (adjusted as `adj` asks). */
        low?: number | null;
        /** @description Closing price, local currency (adjusted as `adj` asks). */
        close?: number | null;
        /** @description Traded volume, in lots (never adjusted). */
        volume?: number | null;
        /** @description Traded amount, local currency (never adjusted). */
        amount?: number | null;
        /** @description Adjustment factor = hfq close / bfq close (1 when the snapshot gives none). */
        adj_factor: number;
      }[];
    };
    KlinesBatch: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      count: number;
      limit: number;
      offset: number;
      fields: ('symbol' | 'date' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount' | 'adj_factor')[];
      data: {
        [key: string]: {
          /** @description Symbol code, canonical case. */
          symbol: string;
          /**
           * Format: date
           * @description Trading day, YYYY-MM-DD.
           */
          date: string;
          /** @description Opening price, local currency (adjusted as `adj` asks, 4 decimals). */
          open?: number | null;
          /** @description Highest price, local currency (adjusted as `adj` asks). */
          high?: number | null;
          /** @description Lowest price, local currency (adjusted as `adj` asks). */
          low?: number | null;
          /** @description Closing price, local currency (adjusted as `adj` asks). */
          close?: number | null;
          /** @description Traded volume, in lots (never adjusted). */
          volume?: number | null;
          /** @description Traded amount, local currency (never adjusted). */
          amount?: number | null;
          /** @description Adjustment factor = hfq close / bfq close (1 when the snapshot gives none). */
          adj_factor: number;
        }[];
      };
      missing?: string[];
    };
    CrossSection: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      /**
       * Format: date
       * @description The day asked for, YYYY-MM-DD.
       */
      date: string;
      total: number;
      count: number;
      limit: number;
      offset: number;
      fields: ('symbol' | 'date' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount' | 'adj_factor')[];
      data: {
        /** @description Symbol code, canonical case. */
        symbol: string;
        /**
         * Format: date
         * @description Trading day, YYYY-MM-DD.
         */
        date: string;
        /** @description Opening price, local currency (adjusted as `adj` asks, 4 decimals). */
        open?: number | null;
        /** @description Highest price, local currency (adjusted as `adj` asks). */
        high?: number | null;
        /** @description Lowest price, local currency (adjusted as `adj` asks). */
        low?: number | null;
        /** @description Closing price, local currency (adjusted as `adj` asks). */
        close?: number | null;
        /** @description Traded volume, in lots (never adjusted). */
        volume?: number | null;
        /** @description Traded amount, local currency (never adjusted). */
        amount?: number | null;
        /** @description Adjustment factor = hfq close / bfq close (1 when the snapshot gives none). */
        adj_factor: number;
      }[];
    };
    Detail: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      symbol: string;
      count: number;
      /** @description The latest snapshot of one symbol; only the selected columns appear, always in this order. Answered numbers are rounded to 4 decimals. */
      data: {
        /** @description Symbol code, canonical case. */
        symbol: string;
        /**
         * Format: date
         * @description The snapshot's day: the latest K-line day on record, YYYY-MM-DD (null for a symbol without K-lines).
         */
        date: string | null;
        /** @description Name (symbols.csv). */
        name?: string | null;
        /** @description Market name (symbols.csv). */
        market_name?: string | null;
        /** @description Market type (symbols.csv). */
        market_type?: string | null;
        /** @description Opening price of the day, local currency, unadjusted. */
        open?: number | null;
        /** @description Highest price of the day, local currency, unadjusted. */
        high?: number | null;
        /** @description Lowest price of the day, local currency, unadjusted. */
        low?: number | null;
        /** @description Closing price of the day, local currency, unadjusted. */
        close?: number | null;
        /** @description Previous close, in the basis of the day's adjustment factor, local currency. */
        pre_close?: number | null;
        /** @description Average traded price of the day, local currency. */
        avg_price?: number | null;
        /** @description Traded volume of the day, in lots. */
        volume?: number | null;
        /** @description Traded amount of the day, local currency. */
        amount?: number | null;
        /** @description close − pre_close, local currency. */
        change?: number | null;
        /** @description Price change, percent (1.5 = 1.5 %). */
        change_percent?: number | null;
        /** @description Sell-initiated volume, in lots (ashare only). */
        inner_volume?: number | null;
        /** @description Buy-initiated volume, in lots (ashare only). */
        outer_volume?: number | null;
        /** @description Turnover rate, percent. */
        turnover_rate?: number | null;
        /** @description Volume over the mean volume of the 5 days before (a ratio). */
        volume_ratio?: number | null;
        /** @description Amplitude (high − low) / pre_close, percent. */
        range_pct?: number | null;
        /** @description Price/earnings, trailing twelve months (a ratio). */
        pe_ratio?: number | null;
        /** @description Forecast price/earnings (a ratio). */
        pe_fwd?: number | null;
        /** @description Static price/earnings of the previous year (a ratio). */
        pe_lyr?: number | null;
        /** @description Price/book (a ratio). */
        pb_ratio?: number | null;
        /** @description Dividend yield, trailing twelve months, percent. */
        dividend_ratio_ttm?: number | null;
        /** @description Dividend per share, trailing twelve months, local currency. */
        dividend_ttm?: number | null;
        /** @description Stock-Connect holding share, percent (hkstock only). */
        wb_ratio?: number | null;
        /** @description Earnings per share, trailing twelve months, local currency (usstock only). */
        eps_ttm?: number | null;
        /** @description Total market capitalisation, in 100 million of local currency. */
        total_market_cap?: number | null;
        /** @description Circulating market capitalisation, in 100 million of local currency. */
        circulating_market_cap?: number | null;
        /** @description Total shares, in shares. */
        total_shares?: number | null;
        /** @description Floating shares, in shares. */
        float_shares?: number | null;
        /** @description Highest forward-adjusted high of the last 365 days, local currency. */
        high_52week?: number | null;
        /** @description Lowest forward-adjusted low of the last 365 days, local currency. */
        low_52week?: number | null;
        /** @description Gain over 5 trading days, percent. */
        chg_5d?: number | null;
        /** @description Gain over 10 trading days, percent. */
        chg_10d?: number | null;
        /** @description Gain over 20 trading days, percent. */
        chg_20d?: number | null;
        /** @description Gain over 60 trading days, percent. */
        chg_60d?: number | null;
        /** @description Gain since the last close of the previous calendar year, percent. */
        chg_ytd?: number | null;
        /** @description Mean of the last 5 forward-adjusted closes, local currency. */
        ma5?: number | null;
        /** @description Mean of the last 10 forward-adjusted closes, local currency. */
        ma10?: number | null;
        /** @description Mean of the last 20 forward-adjusted closes, local currency. */
        ma20?: number | null;
        /** @description Mean of the last 60 forward-adjusted closes, local currency. */
        ma60?: number | null;
        /** @description Deviation of close from ma20, percent. */
        close_vs_ma20?: number | null;
        /** @description Deviation of close from high_52week, percent. */
        close_vs_52w_high?: number | null;
      };
    };
    DetailBatch: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      count: number;
      data: {
        [key: string]: {
          /** @description Symbol code, canonical case. */
          symbol: string;
          /**
           * Format: date
           * @description The snapshot's day: the latest K-line day on record, YYYY-MM-DD (null for a symbol without K-lines).
           */
          date: string | null;
          /** @description Name (symbols.csv). */
          name?: string | null;
          /** @description Market name (symbols.csv). */
          market_name?: string | null;
          /** @description Market type (symbols.csv). */
          market_type?: string | null;
          /** @description Opening price of the day, local currency, unadjusted. */
          open?: number | null;
          /** @description Highest price of the day, local currency, unadjusted. */
          high?: number | null;
          /** @description Lowest price of the day, local currency, unadjusted. */
          low?: number | null;
          /** @description Closing price of the day, local currency, unadjusted. */
          close?: number | null;
          /** @description Previous close, in the basis of the day's adjustment factor, local currency. */
          pre_close?: number | null;
          /** @description Average traded price of the day, local currency. */
          avg_price?: number | null;
          /** @description Traded volume of the day, in lots. */
          volume?: number | null;
          /** @description Traded amount of the day, local currency. */
          amount?: number | null;
          /** @description close − pre_close, local currency. */
          change?: number | null;
          /** @description Price change, percent (1.5 = 1.5 %). */
          change_percent?: number | null;
          /** @description Sell-initiated volume, in lots (ashare only). */
          inner_volume?: number | null;
          /** @description Buy-initiated volume, in lots (ashare only). */
          outer_volume?: number | null;
          /** @description Turnover rate, percent. */
          turnover_rate?: number | null;
          /** @description Volume over the mean volume of the 5 days before (a ratio). */
          volume_ratio?: number | null;
          /** @description Amplitude (high − low) / pre_close, percent. */
          range_pct?: number | null;
          /** @description Price/earnings, trailing twelve months (a ratio). */
          pe_ratio?: number | null;
          /** @description Forecast price/earnings (a ratio). */
          pe_fwd?: number | null;
          /** @description Static price/earnings of the previous year (a ratio). */
          pe_lyr?: number | null;
          /** @description Price/book (a ratio). */
          pb_ratio?: number | null;
          /** @description Dividend yield, trailing twelve months, percent. */
          dividend_ratio_ttm?: number | null;
          /** @description Dividend per share, trailing twelve months, local currency. */
          dividend_ttm?: number | null;
          /** @description Stock-Connect holding share, percent (hkstock only). */
          wb_ratio?: number | null;
          /** @description Earnings per share, trailing twelve months, local currency (usstock only). */
          eps_ttm?: number | null;
          /** @description Total market capitalisation, in 100 million of local currency. */
          total_market_cap?: number | null;
          /** @description Circulating market capitalisation, in 100 million of local currency. */
          circulating_market_cap?: number | null;
          /** @description Total shares, in shares. */
          total_shares?: number | null;
          /** @description Floating shares, in shares. */
          float_shares?: number | null;
          /** @description Highest forward-adjusted high of the last 365 days, local currency. */
          high_52week?: number | null;
          /** @description Lowest forward-adjusted low of the last 365 days, local currency. */
          low_52week?: number | null;
          /** @description Gain over 5 trading days, percent. */
          chg_5d?: number | null;
          /** @description Gain over 10 trading days, percent. */
          chg_10d?: number | null;
          /** @description Gain over 20 trading days, percent. */
          chg_20d?: number | null;
          /** @description Gain over 60 trading days, percent. */
          chg_60d?: number | null;
          /** @description Gain since the last close of the previous calendar year, percent. */
          chg_ytd?: number | null;
          /** @description Mean of the last 5 forward-adjusted closes, local currency. */
          ma5?: number | null;
          /** @description Mean of the last 10 forward-adjusted closes, local currency. */
          ma10?: number | null;
          /** @description Mean of the last 20 forward-adjusted closes, local currency. */
          ma20?: number | null;
          /** @description Mean of the last 60 forward-adjusted closes, local currency. */
          ma60?: number | null;
          /** @description Deviation of close from ma20, percent. */
          close_vs_ma20?: number | null;
          /** @description Deviation of close from high_52week, percent. */
          close_vs_52w_high?: number | null;
        };
      };
      missing?: string[];
    };
    Screen: {
      /**
       * @description Market, as in the path.
       * @enum {string}
       */
      market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      total: number;
      count: number;
      limit: number;
      offset: number;
      sort: string;
      /** @enum {string} */
      order: 'asc' | 'desc';
      data: {
        /** @description Symbol code, canonical case. */
        symbol: string;
        /**
         * Format: date
         * @description The snapshot's day: the latest K-line day on record, YYYY-MM-DD (null for a symbol without K-lines).
         */
        date: string | null;
        /** @description Name (symbols.csv). */
        name?: string | null;
        /** @description Market name (symbols.csv). */
        market_name?: string | null;
        /** @description Market type (symbols.csv). */
        market_type?: string | null;
        /** @description Opening price of the day, local currency, unadjusted. */
        open?: number | null;
        /** @description Highest price of the day, local currency, unadjusted. */
        high?: number | null;
        /** @description Lowest price of the day, local currency, unadjusted. */
        low?: number | null;
        /** @description Closing price of the day, local currency, unadjusted. */
        close?: number | null;
        /** @description Previous close, in the basis of the day's adjustment factor, local currency. */
        pre_close?: number | null;
        /** @description Average traded price of the day, local currency. */
        avg_price?: number | null;
        /** @description Traded volume of the day, in lots. */
        volume?: number | null;
        /** @description Traded amount of the day, local currency. */
        amount?: number | null;
        /** @description close − pre_close, local currency. */
        change?: number | null;
        /** @description Price change, percent (1.5 = 1.5 %). */
        change_percent?: number | null;
        /** @description Sell-initiated volume, in lots (ashare only). */
        inner_volume?: number | null;
        /** @description Buy-initiated volume, in lots (ashare only). */
        outer_volume?: number | null;
        /** @description Turnover rate, percent. */
        turnover_rate?: number | null;
        /** @description Volume over the mean volume of the 5 days before (a ratio). */
        volume_ratio?: number | null;
        /** @description Amplitude (high − low) / pre_close, percent. */
        range_pct?: number | null;
        /** @description Price/earnings, trailing twelve months (a ratio). */
        pe_ratio?: number | null;
        /** @description Forecast price/earnings (a ratio). */
        pe_fwd?: number | null;
        /** @description Static price/earnings of the previous year (a ratio). */
        pe_lyr?: number | null;
        /** @description Price/book (a ratio). */
        pb_ratio?: number | null;
        /** @description Dividend yield, trailing twelve months, percent. */
        dividend_ratio_ttm?: number | null;
        /** @description Dividend per share, trailing twelve months, local currency. */
        dividend_ttm?: number | null;
        /** @description Stock-Connect holding share, percent (hkstock only). */
        wb_ratio?: number | null;
        /** @description Earnings per share, trailing twelve months, local currency (usstock only). */
        eps_ttm?: number | null;
        /** @description Total market capitalisation, in 100 million of local currency. */
        total_market_cap?: number | null;
        /** @description Circulating market capitalisation, in 100 million of local currency. */
        circulating_market_cap?: number | null;
        /** @description Total shares, in shares. */
        total_shares?: number | null;
        /** @description Floating shares, in shares. */
        float_shares?: number | null;
        /** @description Highest forward-adjusted high of the last 365 days, local currency. */
        high_52week?: number | null;
        /** @description Lowest forward-adjusted low of the last 365 days, local currency. */
        low_52week?: number | null;
        /** @description Gain over 5 trading days, percent. */
        chg_5d?: number | null;
        /** @description Gain over 10 trading days, percent. */
        chg_10d?: number | null;
        /** @description Gain over 20 trading days, percent. */
        chg_20d?: number | null;
        /** @description Gain over 60 trading days, percent. */
        chg_60d?: number | null;
        /** @description Gain since the last close of the previous calendar year, percent. */
        chg_ytd?: number | null;
        /** @description Mean of the last 5 forward-adjusted closes, local currency. */
        ma5?: number | null;
        /** @description Mean of the last 10 forward-adjusted closes, local currency. */
        ma10?: number | null;
        /** @description Mean of the last 20 forward-adjusted closes, local currency. */
        ma20?: number | null;
        /** @description Mean of the last 60 forward-adjusted closes, local currency. */
        ma60?: number | null;
        /** @description Deviation of close from ma20, percent. */
        close_vs_ma20?: number | null;
        /** @description Deviation of close from high_52week, percent. */
        close_vs_52w_high?: number | null;
      }[];
    };
    Macro: {
      count: number;
      total: number;
      limit: number;
      offset: number;
      data: {
        /** @enum {string} */
        indicator: 'gdp' | 'cpi_ppi' | 'pmi';
        /**
         * Format: date
         * @description YYYY-MM-DD
         */
        date: string;
        data: {
          [key: string]: number | null;
        };
      }[];
    };
    MacroIndicators: {
      count: number;
      data: {
        indicator: string;
        /** @enum {string} */
        frequency: 'monthly' | 'quarterly' | 'irregular';
        /**
         * Format: date
         * @description First release, YYYY-MM-DD (a period-end day).
         */
        start: string;
        /**
         * Format: date
         * @description Last release, YYYY-MM-DD.
         */
        end: string;
        keys: {
          key: string;
          /** @description Unit of the series; null when none is documented. */
          unit: string | null;
        }[];
      }[];
    };
    Quota: {
      plan: string;
      org_name: string;
      daily_quota: number | null;
      used: number;
      remaining: number | null;
      requests_today: number;
      /** Format: date-time */
      reset_at: string;
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description Id of the snapshot that answered (`<manifest id>.<content hash>`); on every response once data is loaded. */
    'X-Data-Version': string;
    /** @description The request id: the client's own `X-Request-Id` when it sent one of at most 128 visible ASCII characters, else a new one. Also `instance` of a problem body and in the server's log lines. */
    'X-Request-Id': string;
    /** @description Requests per minute of the key's plan (absent for internal keys). */
    'X-RateLimit-Limit': number;
    /** @description Whole requests left in the bucket after this one (absent for internal keys). */
    'X-RateLimit-Remaining': number;
    /** @description Seconds until the bucket is full again, rounded up (absent for internal keys). */
    'X-RateLimit-Reset': number;
    /** @description Rows a day of the key's plan (absent for internal keys). */
    'X-Quota-Limit': number;
    /** @description Rows left today after this response's charge (absent for internal keys). */
    'X-Quota-Remaining': number;
    /** @description Whole seconds to wait before retrying (at least 1). */
    'Retry-After': number;
    /** @description Strong entity tag of this representation: it follows the data version, the request, the format and the encoding. Send it back in `If-None-Match` for a 304. */
    ETag: string;
    /** @description `private, no-cache`: a client may keep the answer but must revalidate it (cheap: a 304 has no body and charges no rows). */
    'Cache-Control': string;
    /** @description `Accept, Accept-Encoding` (and `Origin` when CORS_ORIGINS lists origins). */
    Vary: string;
    /** @description `br` or `gzip` as `Accept-Encoding` prefers (q-values honoured); absent for bodies under 1024 bytes. */
    'Content-Encoding': 'br' | 'gzip';
    /** @description RFC 8288 `<…>; rel="next"`: the same request for the next page, while rows remain (paged answers only). */
    Link: string;
  };
  pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
  listMarkets: {
    parameters: {
      query?: {
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "count": 2,
           *       "data": [
           *         {
           *           "market": "ashare",
           *           "symbols": 3000,
           *           "rows": 7305000,
           *           "start_date": "2016-01-04",
           *           "end_date": "2025-06-30"
           *         },
           *         {
           *           "market": "crypto",
           *           "symbols": 0,
           *           "rows": 0,
           *           "start_date": null,
           *           "end_date": null
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Markets'];
          'application/msgpack': components['schemas']['Markets'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  listMacro: {
    parameters: {
      query?: {
        /** @description One indicator; all when omitted. */
        indicator?: 'gdp' | 'cpi_ppi' | 'pmi';
        /** @description First year (inclusive). Four digits. */
        start?: string;
        /** @description Last year (inclusive); `start` after `end` is a 400. Four digits. */
        end?: string;
        /** @description Rows to return. Not capped by the plan. Digits only. */
        limit?: number;
        /** @description Rows to skip. Digits only. */
        offset?: number;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          Link: components['headers']['Link'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "count": 1,
           *       "total": 12,
           *       "limit": 1,
           *       "offset": 0,
           *       "data": [
           *         {
           *           "indicator": "gdp",
           *           "date": "2024-12-31",
           *           "data": {
           *             "GDP_GDP": 1349084,
           *             "GDP_GDP_YOY": 5.4,
           *             "GDP_PRIMARY_YOY": 3.5,
           *             "GDP_SECONDARY_YOY": 5.3,
           *             "GDP_TERTIARY_YOY": 5
           *           }
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Macro'];
          'application/msgpack': components['schemas']['Macro'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `macro_not_ready`: the loaded snapshot holds no macro data
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "macro_not_ready",
           *       "detail": "an example of macro_not_ready",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'macro_not_ready';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  listMacroIndicators: {
    parameters: {
      query?: {
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "count": 1,
           *       "data": [
           *         {
           *           "indicator": "gdp",
           *           "frequency": "quarterly",
           *           "start": "2015-03-31",
           *           "end": "2025-03-31",
           *           "keys": [
           *             {
           *               "key": "GDP_GDP",
           *               "unit": "100 million CNY"
           *             },
           *             {
           *               "key": "GDP_GDP_YOY",
           *               "unit": "%"
           *             },
           *             {
           *               "key": "GDP_PRIMARY_YOY",
           *               "unit": "%"
           *             },
           *             {
           *               "key": "GDP_SECONDARY_YOY",
           *               "unit": "%"
           *             },
           *             {
           *               "key": "GDP_TERTIARY_YOY",
           *               "unit": "%"
           *             }
           *           ]
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['MacroIndicators'];
          'application/msgpack': components['schemas']['MacroIndicators'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `macro_not_ready`: the loaded snapshot holds no macro data
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "macro_not_ready",
           *       "detail": "an example of macro_not_ready",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'macro_not_ready';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getQuota: {
    parameters: {
      query?: {
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "plan": "pro",
           *       "org_name": "Desk A",
           *       "daily_quota": 200000,
           *       "used": 1200,
           *       "remaining": 198800,
           *       "requests_today": 31,
           *       "reset_at": "2025-03-16T00:00:00.000Z"
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Quota'];
          'application/msgpack': components['schemas']['Quota'];
          'application/x-flatbuffers': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  listSymbols: {
    parameters: {
      query?: {
        /** @description Text matched against code and name (trimmed; empty lists every symbol). */
        search?: string;
        /** @description Rows to return. A value above 100 is clamped to 100. Digits only. */
        limit?: number;
        /** @description Rows to skip. Digits only. */
        offset?: number;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          Link: components['headers']['Link'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "total": 2,
           *       "count": 2,
           *       "limit": 50,
           *       "offset": 0,
           *       "data": [
           *         {
           *           "symbol": "sh600000",
           *           "name": "Pudong Bank"
           *         },
           *         {
           *           "symbol": "sh600004",
           *           "name": null
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Symbols'];
          'application/msgpack': components['schemas']['Symbols'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getCalendar: {
    parameters: {
      query?: {
        /** @description First day of the window (inclusive). A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        start?: string;
        /** @description Last day of the window (inclusive); `start` after `end` is a 400. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        end?: string;
        /** @description Days to return. A larger value is clamped to the plan's rows per call (the plans are listed in the API description); the response's `limit` shows the value used. Digits only. */
        limit?: number;
        /** @description Days to skip from the window's earliest day. Digits only. */
        offset?: number;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          Link: components['headers']['Link'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "total": 2436,
           *       "count": 2,
           *       "limit": 2,
           *       "offset": 0,
           *       "data": [
           *         {
           *           "date": "2015-07-01"
           *         },
           *         {
           *           "date": "2015-07-02"
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Calendar'];
          'application/msgpack': components['schemas']['Calendar'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getActions: {
    parameters: {
      query?: {
        /** @description First day (inclusive) of the events to return. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        start?: string;
        /** @description Last day (inclusive); `start` after `end` is a 400. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        end?: string;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
        /** @description Symbol code, matched case-insensitively and answered in canonical case. */
        symbol: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "symbol": "sh600000",
           *       "count": 2,
           *       "data": [
           *         {
           *           "date": "2024-07-15",
           *           "adj_factor": 7.0385,
           *           "prev_adj_factor": 6.8861,
           *           "ratio": 1.022132
           *         },
           *         {
           *           "date": "2025-06-20",
           *           "adj_factor": 14.077,
           *           "prev_adj_factor": 7.0385,
           *           "ratio": 2
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Actions'];
          'application/msgpack': components['schemas']['Actions'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `unknown_symbol`: the symbol (or every symbol of a batch) does not exist
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "unknown_symbol",
           *       "detail": "an example of unknown_symbol",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'unknown_symbol';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getKlines: {
    parameters: {
      query?: {
        /** @description First day of the window (inclusive); `offset` then skips forward. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        start?: string;
        /** @description Last day of the window (inclusive). Without `start` the window ends here (or at the latest row) and `offset` skips backward. `start` after `end` is a 400. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        end?: string;
        /** @description Comma-separated list. Short codes (o,h,l,c,v,a) or full names, or `*`; default all. symbol, date and adj_factor are always returned. Case-insensitive. Items are trimmed, duplicates dropped (first wins); an empty item is a 400. */
        fields?: ('*' | 'o' | 'h' | 'l' | 'c' | 'v' | 'a' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount')[];
        /** @description Adjustment: bfq as stored, qfq forward-adjusted (by the latest stored adj_factor), hfq backward-adjusted. Prices rounded to 4 decimals; volume and amount never adjusted. */
        adj?: 'bfq' | 'qfq' | 'hfq';
        /**
         * @description With `adj=qfq`: forward-adjust to this day's factor (the symbol's last stored day on or before it) instead of the latest day's: every price in that day's basis, so the rows that share its factor read as quoted. E.g. `adj=qfq&qfq_base=2021-06-30` beside `as_of=2021-06-30` gives the K-lines in the basis of that day's snapshot. Another `adj` is a 400; a day before the symbol's first row is a 400. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD).
         * @example 2021-06-30
         */
        qfq_base?: string;
        /** @description Bar length: day, or weeks (ISO, Monday to Sunday), calendar months, quarters or years built from the adjusted daily rows: open the first day's, high the largest, low the smallest, close the last day's, volume and amount summed; `date` and `adj_factor` are the last trading day's of the period. The latest period may be unfinished. `start`, `end`, `limit`, `offset` and `total` count bars, selected by their `date`; a bar always holds all its days. */
        period?: 'day' | 'week' | 'month' | 'quarter' | 'year';
        /** @description Rows to return (per symbol). A larger value is clamped to the plan's rows per call (the plans are listed in the API description); the response's `limit` shows the value used. Digits only. */
        limit?: number;
        /** @description Rows to skip. Digits only. */
        offset?: number;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
        /** @description Symbol code, matched case-insensitively and answered in canonical case. */
        symbol: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          Link: components['headers']['Link'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "symbol": "sh600000",
           *       "count": 2,
           *       "total": 2436,
           *       "offset": 0,
           *       "limit": 2,
           *       "fields": [
           *         "symbol",
           *         "date",
           *         "open",
           *         "high",
           *         "low",
           *         "close",
           *         "volume",
           *         "amount",
           *         "adj_factor"
           *       ],
           *       "data": [
           *         {
           *           "symbol": "sh600000",
           *           "date": "2025-06-27",
           *           "open": 10.21,
           *           "high": 10.35,
           *           "low": 10.16,
           *           "close": 10.3,
           *           "volume": 412345,
           *           "amount": 423456789,
           *           "adj_factor": 7.1846
           *         },
           *         {
           *           "symbol": "sh600000",
           *           "date": "2025-06-30",
           *           "open": 10.3,
           *           "high": 10.44,
           *           "low": 10.25,
           *           "close": 10.41,
           *           "volume": 398765,
           *           "amount": 414321987,
           *           "adj_factor": 7.1846
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Klines'];
          'application/msgpack': components['schemas']['Klines'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `unknown_symbol`: the symbol (or every symbol of a batch) does not exist
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "unknown_symbol",
           *       "detail": "an example of unknown_symbol",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'unknown_symbol';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getKlinesBatch: {
    parameters: {
      query?: {
        /** @description Comma-separated list. At most the plan's batch size (the plans are listed in the API description); more is 400 `batch_too_large`. Omitted with `date`: the cross-section. Items are trimmed; a symbol named twice (in any of its forms) is answered once, where first named; an empty item is a 400. */
        symbols?: string[];
        /** @description One day; each symbol gets its row of that day or an empty array (without `symbols`: every symbol's row). Combined with `start`, `end` or a `period` other than day it is 400 `invalid_parameter`. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        date?: string;
        /** @description First day of the window (inclusive); `offset` then skips forward. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        start?: string;
        /** @description Last day of the window (inclusive). Without `start` the window ends here (or at the latest row) and `offset` skips backward. `start` after `end` is a 400. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        end?: string;
        /** @description Comma-separated list. Short codes (o,h,l,c,v,a) or full names, or `*`; default close,volume (all fields for the cross-section). Case-insensitive. Items are trimmed, duplicates dropped (first wins); an empty item is a 400. */
        fields?: ('*' | 'o' | 'h' | 'l' | 'c' | 'v' | 'a' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount')[];
        /** @description Adjustment: bfq as stored, qfq forward-adjusted (by the latest stored adj_factor), hfq backward-adjusted. Prices rounded to 4 decimals; volume and amount never adjusted. */
        adj?: 'bfq' | 'qfq' | 'hfq';
        /** @description Bar length: day, or weeks (ISO, Monday to Sunday), calendar months, quarters or years built from the adjusted daily rows: open the first day's, high the largest, low the smallest, close the last day's, volume and amount summed; `date` and `adj_factor` are the last trading day's of the period. The latest period may be unfinished. `start`, `end`, `limit`, `offset` and `total` count bars, selected by their `date`; a bar always holds all its days. */
        period?: 'day' | 'week' | 'month' | 'quarter' | 'year';
        /** @description Rows to return (per symbol). A larger value is clamped to the plan's rows per call (the plans are listed in the API description); the response's `limit` shows the value used. Digits only. */
        limit?: number;
        /** @description Rows to skip. Digits only. */
        offset?: number;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          Link: components['headers']['Link'];
          [name: string]: unknown;
        };
        content: {
          'application/json; charset=utf-8':
            | components['schemas']['KlinesBatch']
            | components['schemas']['CrossSection'];
          'application/msgpack': components['schemas']['KlinesBatch'] | components['schemas']['CrossSection'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       *     - `batch_too_large`: more symbols than the plan's batch size
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market' | 'batch_too_large';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `unknown_symbol`: the symbol (or every symbol of a batch) does not exist
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "unknown_symbol",
           *       "detail": "an example of unknown_symbol",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'unknown_symbol';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  exportKlines: {
    parameters: {
      query?: {
        /** @description First day of the window (inclusive); `offset` then skips forward. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        start?: string;
        /** @description Last day of the window (inclusive). Without `start` the window ends here (or at the latest row) and `offset` skips backward. `start` after `end` is a 400. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD). */
        end?: string;
        /** @description Comma-separated list. Symbols to export (codes or the forms the other routes take); every symbol of the market when omitted. At most 10000; one that does not exist is a 404. Items are trimmed; a symbol named twice (in any of its forms) is answered once, where first named; an empty item is a 400. */
        symbols?: string[];
        /** @description Comma-separated list. Short codes (o,h,l,c,v,a) or full names, or `*`; default all. symbol, date and adj_factor are always written. Case-insensitive. Items are trimmed, duplicates dropped (first wins); an empty item is a 400. */
        fields?: ('*' | 'o' | 'h' | 'l' | 'c' | 'v' | 'a' | 'open' | 'high' | 'low' | 'close' | 'volume' | 'amount')[];
        /** @description Adjustment: bfq as stored, qfq forward-adjusted (by the latest stored adj_factor), hfq backward-adjusted. Prices rounded to 4 decimals; volume and amount never adjusted. */
        adj?: 'bfq' | 'qfq' | 'hfq';
        /** @description Bar length: day, or weeks (ISO, Monday to Sunday), calendar months, quarters or years built from the adjusted daily rows: open the first day's, high the largest, low the smallest, close the last day's, volume and amount summed; `date` and `adj_factor` are the last trading day's of the period. The latest period may be unfinished. `start`, `end`, `limit`, `offset` and `total` count bars, selected by their `date`; a bar always holds all its days. */
        period?: 'day' | 'week' | 'month' | 'quarter' | 'year';
        /** @description csv (`text/csv`), arrow (`application/vnd.apache.arrow.stream`) or ndjson (`application/x-ndjson`). */
        format?: 'csv' | 'arrow' | 'ndjson';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
          'application/x-ndjson': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `unknown_symbol`: the symbol (or every symbol of a batch) does not exist
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "unknown_symbol",
           *       "detail": "an example of unknown_symbol",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'unknown_symbol';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getDetail: {
    parameters: {
      query?: {
        /** @description Comma-separated list. Snapshot columns, or `*`; default all. symbol and date are always returned. Case-insensitive. Items are trimmed, duplicates dropped (first wins); an empty item is a 400. */
        fields?: (
          | '*'
          | 'symbol'
          | 'date'
          | 'name'
          | 'market_name'
          | 'market_type'
          | 'open'
          | 'high'
          | 'low'
          | 'close'
          | 'pre_close'
          | 'avg_price'
          | 'volume'
          | 'amount'
          | 'change'
          | 'change_percent'
          | 'inner_volume'
          | 'outer_volume'
          | 'turnover_rate'
          | 'volume_ratio'
          | 'range_pct'
          | 'pe_ratio'
          | 'pe_fwd'
          | 'pe_lyr'
          | 'pb_ratio'
          | 'dividend_ratio_ttm'
          | 'dividend_ttm'
          | 'wb_ratio'
          | 'eps_ttm'
          | 'total_market_cap'
          | 'circulating_market_cap'
          | 'total_shares'
          | 'float_shares'
          | 'high_52week'
          | 'low_52week'
          | 'chg_5d'
          | 'chg_10d'
          | 'chg_20d'
          | 'chg_60d'
          | 'chg_ytd'
          | 'ma5'
          | 'ma10'
          | 'ma20'
          | 'ma60'
          | 'close_vs_ma20'
          | 'close_vs_52w_high'
        )[];
        /**
         * @description Point in time: the snapshot as a snapshot folder holding only the rows dated on or before this day would give it (each row dated its last trading day on or before it; a symbol with no row by then is absent). Every column is computed from that history alone: prices and qfq moving averages in that day's basis, momentum and the 52-week range up to it, the fundamentals row in force then, so a backtest screens on what was known. E.g. `screen?as_of=2021-06-30&min_pe_ratio=0&max_pe_ratio=15&sort=chg_20d`. On or after the latest day: as without it. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD).
         * @example 2021-06-30
         */
        as_of?: string;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
        /** @description Symbol code, matched case-insensitively and answered in canonical case. */
        symbol: string;
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "symbol": "sh600000",
           *       "count": 1,
           *       "data": {
           *         "symbol": "sh600000",
           *         "date": "2025-06-30",
           *         "name": "Pudong Bank",
           *         "close": 10.41,
           *         "change_percent": 1.0679,
           *         "pe_ratio": 5.62,
           *         "pb_ratio": 0.48,
           *         "total_market_cap": 3055.3,
           *         "chg_20d": 4.2168
           *       }
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Detail'];
          'application/msgpack': components['schemas']['Detail'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `unknown_symbol`: the symbol (or every symbol of a batch) does not exist
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "unknown_symbol",
           *       "detail": "an example of unknown_symbol",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'unknown_symbol';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `deadline_exceeded`: the request outran the server deadline (default 5 s) and was abandoned (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'deadline_exceeded' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  getDetailBatch: {
    parameters: {
      query: {
        /** @description Comma-separated list. At most the plan's batch size (the plans are listed in the API description); more is 400 `batch_too_large`. Items are trimmed; a symbol named twice (in any of its forms) is answered once, where first named; an empty item is a 400. */
        symbols: string[];
        /** @description Comma-separated list. Snapshot columns, or `*`; default all. symbol and date are always returned. Case-insensitive. Items are trimmed, duplicates dropped (first wins); an empty item is a 400. */
        fields?: (
          | '*'
          | 'symbol'
          | 'date'
          | 'name'
          | 'market_name'
          | 'market_type'
          | 'open'
          | 'high'
          | 'low'
          | 'close'
          | 'pre_close'
          | 'avg_price'
          | 'volume'
          | 'amount'
          | 'change'
          | 'change_percent'
          | 'inner_volume'
          | 'outer_volume'
          | 'turnover_rate'
          | 'volume_ratio'
          | 'range_pct'
          | 'pe_ratio'
          | 'pe_fwd'
          | 'pe_lyr'
          | 'pb_ratio'
          | 'dividend_ratio_ttm'
          | 'dividend_ttm'
          | 'wb_ratio'
          | 'eps_ttm'
          | 'total_market_cap'
          | 'circulating_market_cap'
          | 'total_shares'
          | 'float_shares'
          | 'high_52week'
          | 'low_52week'
          | 'chg_5d'
          | 'chg_10d'
          | 'chg_20d'
          | 'chg_60d'
          | 'chg_ytd'
          | 'ma5'
          | 'ma10'
          | 'ma20'
          | 'ma60'
          | 'close_vs_ma20'
          | 'close_vs_52w_high'
        )[];
        /**
         * @description Point in time: the snapshot as a snapshot folder holding only the rows dated on or before this day would give it (each row dated its last trading day on or before it; a symbol with no row by then is absent). Every column is computed from that history alone: prices and qfq moving averages in that day's basis, momentum and the 52-week range up to it, the fundamentals row in force then, so a backtest screens on what was known. E.g. `screen?as_of=2021-06-30&min_pe_ratio=0&max_pe_ratio=15&sort=chg_20d`. On or after the latest day: as without it. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD).
         * @example 2021-06-30
         */
        as_of?: string;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "count": 1,
           *       "data": {
           *         "sh600000": {
           *           "symbol": "sh600000",
           *           "date": "2025-06-30",
           *           "name": "Pudong Bank",
           *           "close": 10.41,
           *           "change_percent": 1.0679,
           *           "pe_ratio": 5.62,
           *           "pb_ratio": 0.48,
           *           "total_market_cap": 3055.3,
           *           "chg_20d": 4.2168
           *         }
           *       },
           *       "missing": [
           *         "sh999999"
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['DetailBatch'];
          'application/msgpack': components['schemas']['DetailBatch'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       *     - `batch_too_large`: more symbols than the plan's batch size
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market' | 'batch_too_large';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Found. `code` is one of:
       *     - `unknown_symbol`: the symbol (or every symbol of a batch) does not exist
       */
      404: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Found",
           *       "status": 404,
           *       "code": "unknown_symbol",
           *       "detail": "an example of unknown_symbol",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 404;
            /** @enum {unknown} */
            code?: 'unknown_symbol';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `deadline_exceeded`: the request outran the server deadline (default 5 s) and was abandoned (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'deadline_exceeded' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  screen: {
    parameters: {
      query?: {
        /** @description Column to sort by (the whitelist). */
        sort?:
          | 'open'
          | 'high'
          | 'low'
          | 'close'
          | 'pre_close'
          | 'avg_price'
          | 'volume'
          | 'amount'
          | 'change'
          | 'change_percent'
          | 'inner_volume'
          | 'outer_volume'
          | 'turnover_rate'
          | 'volume_ratio'
          | 'range_pct'
          | 'pe_ratio'
          | 'pe_fwd'
          | 'pe_lyr'
          | 'pb_ratio'
          | 'dividend_ratio_ttm'
          | 'dividend_ttm'
          | 'wb_ratio'
          | 'eps_ttm'
          | 'total_market_cap'
          | 'circulating_market_cap'
          | 'total_shares'
          | 'float_shares'
          | 'high_52week'
          | 'low_52week'
          | 'chg_5d'
          | 'chg_10d'
          | 'chg_20d'
          | 'chg_60d'
          | 'chg_ytd'
          | 'ma5'
          | 'ma10'
          | 'ma20'
          | 'ma60'
          | 'close_vs_ma20'
          | 'close_vs_52w_high';
        /** @description Sort order. */
        order?: 'asc' | 'desc';
        /** @description Comma-separated list. Narrows the rows to these columns (symbol, name and date stay); `*` for all. Case-insensitive. Items are trimmed, duplicates dropped (first wins); an empty item is a 400. */
        fields?: (
          | '*'
          | 'symbol'
          | 'date'
          | 'name'
          | 'market_name'
          | 'market_type'
          | 'open'
          | 'high'
          | 'low'
          | 'close'
          | 'pre_close'
          | 'avg_price'
          | 'volume'
          | 'amount'
          | 'change'
          | 'change_percent'
          | 'inner_volume'
          | 'outer_volume'
          | 'turnover_rate'
          | 'volume_ratio'
          | 'range_pct'
          | 'pe_ratio'
          | 'pe_fwd'
          | 'pe_lyr'
          | 'pb_ratio'
          | 'dividend_ratio_ttm'
          | 'dividend_ttm'
          | 'wb_ratio'
          | 'eps_ttm'
          | 'total_market_cap'
          | 'circulating_market_cap'
          | 'total_shares'
          | 'float_shares'
          | 'high_52week'
          | 'low_52week'
          | 'chg_5d'
          | 'chg_10d'
          | 'chg_20d'
          | 'chg_60d'
          | 'chg_ytd'
          | 'ma5'
          | 'ma10'
          | 'ma20'
          | 'ma60'
          | 'close_vs_ma20'
          | 'close_vs_52w_high'
        )[];
        /** @description Rows to return. A larger value is clamped to the plan's rows per call (the plans are listed in the API description); the response's `limit` shows the value used. Digits only. */
        limit?: number;
        /** @description Rows to skip. Digits only. */
        offset?: number;
        /**
         * @description Point in time: the snapshot as a snapshot folder holding only the rows dated on or before this day would give it (each row dated its last trading day on or before it; a symbol with no row by then is absent). Every column is computed from that history alone: prices and qfq moving averages in that day's basis, momentum and the 52-week range up to it, the fundamentals row in force then, so a backtest screens on what was known. E.g. `screen?as_of=2021-06-30&min_pe_ratio=0&max_pe_ratio=15&sort=chg_20d`. On or after the latest day: as without it. A real calendar date, YYYY-MM-DD or YYYYMMDD (answers write YYYY-MM-DD).
         * @example 2021-06-30
         */
        as_of?: string;
        /** @description Response format; wins over `Accept`. json (application/json), msgpack (application/msgpack), flatbuffers (application/x-flatbuffers, schema at /api/v1/schema.fbs), csv (text/csv; not for /quota), arrow (application/vnd.apache.arrow.stream; not for /quota). */
        format?: 'json' | 'msgpack' | 'flatbuffers' | 'csv' | 'arrow';
        /** @description Inclusive bounds `min_<column>` and `max_<column>` (finite decimals), e.g. `min_pe_ratio=0&max_pe_ratio=15`. A row whose bounded column is null is excluded; a bounded column is added to the rows. A column outside the whitelist is 400 `invalid_parameter`. Whitelist: open, high, low, close, pre_close, avg_price, volume, amount, change, change_percent, inner_volume, outer_volume, turnover_rate, volume_ratio, range_pct, pe_ratio, pe_fwd, pe_lyr, pb_ratio, dividend_ratio_ttm, dividend_ttm, wb_ratio, eps_ttm, total_market_cap, circulating_market_cap, total_shares, float_shares, high_52week, low_52week, chg_5d, chg_10d, chg_20d, chg_60d, chg_ytd, ma5, ma10, ma20, ma60, close_vs_ma20, close_vs_52w_high. */
        bounds?: {
          [key: string]: number;
        };
      };
      header?: {
        /** @description ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing. */
        'If-None-Match'?: string;
        /** @description Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`. */
        'X-Request-Id'?: string;
      };
      path: {
        /** @description Market; any other value is 400 `unknown_market`. */
        market: 'ashare' | 'hkstock' | 'usstock' | 'crypto' | 'indices' | 'etfs';
      };
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          'Content-Encoding': components['headers']['Content-Encoding'];
          Link: components['headers']['Link'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "market": "ashare",
           *       "total": 214,
           *       "count": 1,
           *       "limit": 1,
           *       "offset": 0,
           *       "sort": "change_percent",
           *       "order": "desc",
           *       "data": [
           *         {
           *           "symbol": "sh600000",
           *           "name": "Pudong Bank",
           *           "date": "2025-06-30",
           *           "close": 10.41,
           *           "change_percent": 1.0679,
           *           "pe_ratio": 5.62,
           *           "pb_ratio": 0.48,
           *           "total_market_cap": 3055.3,
           *           "chg_20d": 4.2168
           *         }
           *       ]
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Screen'];
          'application/msgpack': components['schemas']['Screen'];
          'application/x-flatbuffers': string;
          'text/csv; charset=utf-8': string;
          'application/vnd.apache.arrow.stream': string;
        };
      };
      /** @description Not Modified: `If-None-Match` named the current ETag. No body; no rows charged. */
      304: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          ETag: components['headers']['ETag'];
          'Cache-Control': components['headers']['Cache-Control'];
          Vary: components['headers']['Vary'];
          [name: string]: unknown;
        };
        content?: never;
      };
      /**
       * @description Bad Request. `code` is one of:
       *     - `invalid_parameter`: a malformed or out-of-range parameter, an unknown parameter, a parameter given twice or bad percent-encoding (`param` names it)
       *     - `unknown_market`: `{market}` is not one of ashare, hkstock, usstock, crypto, indices, etfs
       */
      400: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Bad Request",
           *       "status": 400,
           *       "code": "invalid_parameter",
           *       "detail": "an example of invalid_parameter",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 400;
            /** @enum {unknown} */
            code?: 'invalid_parameter' | 'unknown_market';
          };
        };
      };
      /**
       * @description Unauthorized. `code` is one of:
       *     - `unauthorized`: no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys
       */
      401: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Unauthorized",
           *       "status": 401,
           *       "code": "unauthorized",
           *       "detail": "an example of unauthorized",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 401;
            /** @enum {unknown} */
            code?: 'unauthorized';
          };
        };
      };
      /**
       * @description Not Acceptable. `code` is one of:
       *     - `not_acceptable`: no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)
       */
      406: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Not Acceptable",
           *       "status": 406,
           *       "code": "not_acceptable",
           *       "detail": "an example of not_acceptable",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 406;
            /** @enum {unknown} */
            code?: 'not_acceptable';
          };
        };
      };
      /**
       * @description Too Many Requests. `code` is one of:
       *     - `rate_limited`: the key's requests-per-minute bucket is empty (`Retry-After`)
       *     - `quota_exhausted`: the key has no rows left today, on an endpoint that charges rows (or fewer than an export holds) (`Retry-After`)
       */
      429: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Too Many Requests",
           *       "status": 429,
           *       "code": "rate_limited",
           *       "detail": "an example of rate_limited",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 429;
            /** @enum {unknown} */
            code?: 'rate_limited' | 'quota_exhausted';
          };
        };
      };
      /**
       * @description Internal Server Error. `code` is one of:
       *     - `internal_error`: an unexpected error; it is logged with the request id, no stack trace is answered
       */
      500: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-RateLimit-Limit': components['headers']['X-RateLimit-Limit'];
          'X-RateLimit-Remaining': components['headers']['X-RateLimit-Remaining'];
          'X-RateLimit-Reset': components['headers']['X-RateLimit-Reset'];
          'X-Quota-Limit': components['headers']['X-Quota-Limit'];
          'X-Quota-Remaining': components['headers']['X-Quota-Remaining'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Internal Server Error",
           *       "status": 500,
           *       "code": "internal_error",
           *       "detail": "an example of internal_error",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 500;
            /** @enum {unknown} */
            code?: 'internal_error';
          };
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       *     - `deadline_exceeded`: the request outran the server deadline (default 5 s) and was abandoned (`Retry-After`)
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `limits_unavailable`: the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "shutting_down",
           *       "detail": "an example of shutting_down",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'shutting_down' | 'deadline_exceeded' | 'not_ready' | 'limits_unavailable';
          };
        };
      };
    };
  };
  health: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ok",
           *       "data_version": "2025-06-30.aff0387e12bc"
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Health'];
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "not_ready",
           *       "detail": "an example of not_ready",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'not_ready' | 'shutting_down';
          };
        };
      };
    };
  };
  ready: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Data-Version': components['headers']['X-Data-Version'];
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ok",
           *       "data_version": "2025-06-30.aff0387e12bc"
           *     }
           */
          'application/json; charset=utf-8': components['schemas']['Health'];
        };
      };
      /**
       * @description Service Unavailable. `code` is one of:
       *     - `not_ready`: no snapshot is loaded yet (`Retry-After`)
       *     - `shutting_down`: the server is draining before exit (`Retry-After`)
       */
      503: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          'Retry-After': components['headers']['Retry-After'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "type": "about:blank",
           *       "title": "Service Unavailable",
           *       "status": 503,
           *       "code": "not_ready",
           *       "detail": "an example of not_ready",
           *       "instance": "3f9a1c02b7de-1"
           *     }
           */
          'application/problem+json': components['schemas']['Problem'] & {
            /** @constant */
            status?: 503;
            /** @enum {unknown} */
            code?: 'not_ready' | 'shutting_down';
          };
        };
      };
    };
  };
  live: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "status": "ok"
           *     }
           */
          'application/json; charset=utf-8': {
            /** @constant */
            status: 'ok';
          };
        };
      };
    };
  };
  version: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "version": "0.1.0",
           *       "commit": "3eb77b5",
           *       "node": "v20.20.2",
           *       "data_version": "2025-06-30.aff0387e12bc"
           *     }
           */
          'application/json; charset=utf-8': {
            version: string;
            commit: string;
            node: string;
            data_version: string | null;
          };
        };
      };
    };
  };
  metrics: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /** @example mdq_http_requests_total{route="/api/v1/markets",status="200",plan="pro"} 12 */
          'text/plain; version=0.0.4; charset=utf-8': string;
        };
      };
    };
  };
  openapi: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /**
           * @example {
           *       "openapi": "3.1.0"
           *     }
           */
          'application/json; charset=utf-8': Record<string, never>;
        };
      };
    };
  };
  flatbuffersSchema: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /** @example namespace mdq; */
          'text/plain; charset=utf-8': string;
        };
      };
    };
  };
  apiReference: {
    parameters: {
      query?: never;
      header?: never;
      path?: never;
      cookie?: never;
    };
    requestBody?: never;
    responses: {
      /** @description OK */
      200: {
        headers: {
          'X-Request-Id': components['headers']['X-Request-Id'];
          [name: string]: unknown;
        };
        content: {
          /** @example <!doctype html> */
          'text/html; charset=utf-8': string;
        };
      };
    };
  };
}
