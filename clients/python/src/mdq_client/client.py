"""Client, answers and problems. Lists go out comma-separated (``symbols=a,b``), screen bounds as
their own parameters (``min_pe_ratio=5``), pages are followed along ``Link: rel="next"``
(``all=True``), 429 and 503 are tried again after ``Retry-After``; ``stream()`` is the push over
WebSocket (stream.py)."""

import json
import random
import re
import shutil
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings

from .stream import messages as stream_messages
from .stream import require_websockets

API = "/api/v1"


class MdqError(Exception):
    """An RFC 9457 problem the service answered: ``status``, ``code``, ``param``, ``detail``,
    ``retry_after`` (the seconds its ``Retry-After`` asked for, or None), ``suggestions`` (codes
    it may have meant, for an unknown symbol) and ``instance`` (the request id to quote)."""

    def __init__(self, problem, retry_after=None):
        self.problem = problem
        self.status = problem.get("status")
        self.code = problem.get("code")
        self.param = problem.get("param")
        self.detail = problem.get("detail")
        self.retry_after = retry_after
        self.suggestions = problem.get("suggestions")
        self.instance = problem.get("instance")
        super().__init__("%s %s: %s" % (self.status, self.code, self.detail))


class PartialPageWarning(UserWarning):
    """``to_pandas()`` of one page of a paged answer: rows remain (``total`` > ``count``)."""


def query_pairs(query):
    """The parameters as the server reads them, ``(name, text)`` in order: lists joined with
    commas, ``bounds`` spread into ``min_<column>`` / ``max_<column>``, None left out."""
    pairs = []
    for name, value in query.items():
        if value is None:
            continue
        if name == "bounds":
            for column, limits in value.items():
                for side in ("min", "max"):
                    if limits.get(side) is not None:
                        pairs.append(("%s_%s" % (side, column), _text(limits[side])))
        elif isinstance(value, (list, tuple)):
            if value:
                pairs.append((name, ",".join(_text(v) for v in value)))
        else:
            pairs.append((name, _text(value)))
    return pairs


def query_string(query):
    """``?a=1&symbols=x,y`` from keyword arguments (``query_pairs``)."""
    pairs = query_pairs(query)
    return "" if not pairs else "?" + urllib.parse.urlencode(pairs, safe=",")


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def next_link(header):
    """The target of ``Link: <...>; rel="next"``, or None."""
    for part in (header or "").split(","):
        pieces = [p.strip() for p in part.split(";")]
        if len(pieces) >= 2 and pieces[0].startswith("<") and pieces[0].endswith(">"):
            if any(p.replace('"', "") == "rel=next" for p in pieces[1:]):
                return pieces[0][1:-1]
    return None


class Answer(dict):
    """A JSON answer (a dict), with its rows as a pandas DataFrame on demand. A paged answer
    (``total``, ``count``) holds one page unless it was asked with ``all=True``."""

    def partial(self):
        """True when this is one page of more rows than it holds (``count`` < ``total``)."""
        total, count = self.get("total"), self.get("count")
        return isinstance(total, int) and isinstance(count, int) and count + (self.get("offset") or 0) < total

    def rows(self):
        """The answer's rows: ``data`` as a list (batch answers keyed by symbol flattened in order)."""
        data = self.get("data")
        if isinstance(data, dict):
            values = list(data.values())
            if values and isinstance(values[0], list):
                return [row for rows in values for row in rows]
            return values
        return list(data or [])

    def to_pandas(self, strict=False):
        """The rows as a pandas DataFrame, columns in the answer's order, ``date`` columns as
        datetime64 (``fields`` orders the columns where the answer has it). One page of more
        rows warns (PartialPageWarning) naming ``count`` and ``total``, or raises ValueError
        with ``strict=True``: ask with ``all=True`` for every row."""
        if self.partial():
            offset = self.get("offset") or 0
            message = "a partial page: count %d of total %d rows%s; ask with all=True for every row" % (
                self["count"],
                self["total"],
                " from offset %d" % offset if offset else "",
            )
            if strict:
                raise ValueError(message)
            warnings.warn(message, PartialPageWarning, stacklevel=2)
        return rows_to_pandas(self.rows(), self.get("fields"))


def rows_to_pandas(rows, fields=None):
    import pandas

    frame = pandas.DataFrame.from_records(rows, columns=fields if rows or fields else None)
    for column in frame.columns:
        if column == "date" or column.endswith("_date"):
            frame[column] = pandas.to_datetime(frame[column])
    return frame


class Client:
    """``Client(base_url, key)``: one method per endpoint (keyword arguments are the query
    parameters; a paged endpoint takes ``all=True`` for every page in one Answer),
    ``pages``/``rows`` for Link paging, ``frame`` for a CSV answer as a DataFrame, ``export`` to
    a file or a DataFrame. Problems raise MdqError; a 429 or 503 is tried again up to
    ``retries`` times (0: never) after its ``Retry-After`` plus up to a quarter more at random,
    unless it asks for more than ``max_retry_wait`` seconds (a spent daily quota)."""

    def __init__(self, base_url, key, timeout=60, retries=3, max_retry_wait=60):
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout
        self.retries = retries
        self.max_retry_wait = max_retry_wait

    # ---- one method per endpoint ------------------------------------------------------

    def markets(self):
        return self.get("/markets")

    def symbols(self, market, all=False, **query):
        return self._paged("/%s/symbols" % _seg(market), all, query)

    def klines(self, market, symbol, all=False, **query):
        return self._paged("/%s/klines/%s" % (_seg(market), _seg(symbol)), all, query)

    def klines_batch(self, market, symbols, **query):
        return self.get("/%s/klines" % _seg(market), symbols=_some(symbols), **query)

    def cross_section(self, market, date, all=False, **query):
        """Every symbol's row of ``date``: one page (``limit``, ``offset``), or with ``all=True`` every page."""
        return self._paged("/%s/klines" % _seg(market), all, dict(query, date=date))

    def detail(self, market, symbol, **query):
        return self.get("/%s/detail/%s" % (_seg(market), _seg(symbol)), **query)

    def detail_batch(self, market, symbols, **query):
        return self.get("/%s/detail" % _seg(market), symbols=_some(symbols), **query)

    def screen(self, market, all=False, **query):
        """``bounds={"pe_ratio": {"min": 0, "max": 15}}`` for the min_/max_ parameters; ``all=True`` for every match."""
        return self._paged("/%s/screen" % _seg(market), all, query)

    def calendar(self, market, all=False, **query):
        return self._paged("/%s/calendar" % _seg(market), all, query)

    def actions(self, market, symbol, **query):
        return self.get("/%s/actions/%s" % (_seg(market), _seg(symbol)), **query)

    def macro(self, all=False, **query):
        return self._paged("/macro", all, query)

    def macro_indicators(self):
        return self.get("/macro/indicators")

    def quota(self):
        return self.get("/quota")

    # ---- paging -----------------------------------------------------------------------

    def _paged(self, path, everything, query):
        return self.all(path, **query) if everything else self.get(path, **query)

    def pages(self, path, **query):
        """Each page (an Answer) from ``path`` on, following ``Link: rel="next"``."""
        url = self._url(path, query)
        while url is not None:
            with self._open(url, "application/json") as res:
                page = Answer(json.load(res))
                link = next_link(res.headers.get("Link"))
            yield page
            url = None if link is None else urllib.parse.urljoin(self.base_url + "/", link)

    def rows(self, path, **query):
        """Every row of every page."""
        for page in self.pages(path, **query):
            for row in page.rows():
                yield row

    def all(self, path, **query):
        """Every row of every page, as an Answer of the first page's figures with all the rows
        (``count`` then equals ``total``; ``limit`` is the page size used)."""
        pages = list(self.pages(path, **query))
        first = pages[0] if pages else Answer()
        whole = Answer(first)
        whole["data"] = [row for page in pages for row in page.rows()]
        whole["count"] = len(whole["data"])
        return whole

    # ---- pandas and export ------------------------------------------------------------

    def frame(self, path, **query):
        """A row-shaped answer fetched as CSV and read by pandas (dates as datetime64)."""
        import pandas

        with self._open(self._url(path, dict(query, format="csv")), "text/csv") as res:
            frame = pandas.read_csv(res, keep_default_na=True)
        for column in frame.columns:
            if column == "date" or column.endswith("_date"):
                frame[column] = pandas.to_datetime(frame[column])
        return frame

    def export(self, market, file=None, **query):
        """``GET /{market}/export`` (CSV unless ``format=``): streamed into ``file`` (a path or a
        binary file object) when given, else read into a pandas DataFrame (CSV or NDJSON; an
        Arrow export goes to a file, or read it with pyarrow)."""
        fmt = query.get("format", "csv")
        if file is None and fmt not in ("csv", "ndjson"):
            raise ValueError("a DataFrame is read from a CSV or NDJSON export; pass file= for format=%s" % fmt)
        url = self._url("/%s/export" % _seg(market), query)
        with self._open(url, "*/*") as res:
            if file is None:
                import pandas

                frame = pandas.read_csv(res) if fmt == "csv" else pandas.read_json(res, lines=True, dtype=False)
                if "date" in frame.columns:
                    frame["date"] = pandas.to_datetime(frame["date"])
                return frame
            if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
                with open(file, "wb") as out:
                    shutil.copyfileobj(res, out, 1 << 20)
            else:
                shutil.copyfileobj(res, file, 1 << 20)
        return file

    # ---- push over WebSocket ----------------------------------------------------------

    def stream(self, subscriptions, reconnects=None, max_reconnect_wait=30):
        """The messages the service pushes for ``subscriptions``, as a generator of dicts (needs
        the websockets package: Debian's python3-websockets). Each subscription is a subscribe
        message without ``action``: ``{"channel": "editions"}``, ``{"channel": "bars", "market":
        "ashare", "symbols": [...] or "*"}``, ``{"channel": "screen", "market": "ashare", "id":
        "cheap", "query": {...}}`` (the query as ``screen()`` takes it: ``bounds={...}``, lists).
        Every message comes through (``welcome``, ``subscribed``, ``error``, ``edition``,
        ``bars``, ``screen``). After a drop the connection is made again (waits of about 0.5 s
        doubling up to ``max_reconnect_wait`` seconds, jittered; ``reconnects`` drops in a row at
        most, None: no end) and subscribed again: a new ``welcome``, the ``subscribed`` replies and
        each screen's page come again. A refused key or too many connections raises StreamError;
        leaving the loop (``break``) or ``close()`` closes the socket."""
        require_websockets()  # here, not at the first message: a missing package is said at once
        url = re.sub(r"^http", "ws", self.base_url) + API + "/stream"
        requests = [_subscribe_message(s) for s in subscriptions]
        return stream_messages(url, self.key, requests, reconnects, max_reconnect_wait)

    # ---- the one request --------------------------------------------------------------

    def get(self, path, **query):
        """GET ``/api/v1<path>`` with the query; the JSON answer as an Answer."""
        with self._open(self._url(path, query), "application/json") as res:
            return Answer(json.load(res))

    def _url(self, path, query):
        return self.base_url + API + path + query_string(query)

    def _open(self, url, accept):
        request = urllib.request.Request(url, headers={"X-API-Key": self.key, "Accept": accept})
        attempt = 0
        while True:
            try:
                return urllib.request.urlopen(request, timeout=self.timeout)
            except urllib.error.HTTPError as error:
                failure = _problem_of(error)
            wait = failure.retry_after if failure.retry_after is not None else 0.5 * 2**attempt
            if failure.status not in (429, 503) or attempt >= self.retries or wait > self.max_retry_wait:
                raise failure from None
            time.sleep(wait * (1 + random.random() * 0.25))  # never sooner than Retry-After; jitter spreads clients out
            attempt += 1


def _problem_of(error):
    """The MdqError of an HTTP error answer (a body that is no problem+json still gives its status)."""
    body = error.read()
    try:
        problem = json.loads(body)
    except ValueError:
        problem = {"status": error.code, "code": "http_error", "detail": body[:200].decode("utf-8", "replace")}
    after = error.headers.get("Retry-After")
    return MdqError(problem, int(after) if after is not None and after.isdigit() else None)


def _subscribe_message(subscription):
    """A subscription as its subscribe message: a screen's query with its bounds spread and lists joined."""
    message = dict(subscription, action="subscribe")
    if message.get("channel") == "screen":
        message["query"] = dict(query_pairs(message.get("query") or {}))
    return message


def _some(symbols):
    """A batch's symbols as a list: an empty one is a mistake here (sent as nothing it would ask another question)."""
    symbols = [symbols] if isinstance(symbols, str) else list(symbols)
    if not symbols:
        raise ValueError("a batch names at least one symbol")
    return symbols


def _seg(text):
    return urllib.parse.quote(str(text), safe="")

