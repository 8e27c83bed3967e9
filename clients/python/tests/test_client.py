"""The Python client against a running server (MDQ_URL, MDQ_KEY: a pro key on the fixture snapshot):
every endpoint's method answers what a plain GET answers, lists and bounds go out the way the
server reads them, every paged endpoint gives every page with all=True, a partial page's
DataFrame warns (or raises), problems raise MdqError, 429 and 503 are retried after Retry-After
(a stand-in server answers them), pandas frames hold the rows, the export reaches a file and a
DataFrame."""

import http.server
import io
import json
import os
import tempfile
import threading
import time
import unittest
import urllib.request
import warnings

from mdq_client import Client, MdqError, PartialPageWarning

URL = os.environ["MDQ_URL"]
KEY = os.environ["MDQ_KEY"]
HERE = os.path.dirname(os.path.abspath(__file__))


def plain(path):
    """What a plain GET of /api/v1<path> answers (JSON)."""
    request = urllib.request.Request(URL + "/api/v1" + path, headers={"X-API-Key": KEY})
    with urllib.request.urlopen(request) as res:
        return json.load(res)


def raw(path):
    request = urllib.request.Request(URL + "/api/v1" + path, headers={"X-API-Key": KEY})
    with urllib.request.urlopen(request) as res:
        return res.read()


class ClientTest(unittest.TestCase):
    def setUp(self):
        self.client = Client(URL, KEY)

    def test_every_endpoint_answers_what_a_plain_get_answers(self):
        c = self.client
        cases = [
            (lambda: c.markets(), "/markets"),
            (lambda: c.symbols("ashare", search="sh6", limit=3), "/ashare/symbols?search=sh6&limit=3"),
            (lambda: c.klines("ashare", "600001.SH", adj="qfq", limit=3), "/ashare/klines/sh600001?adj=qfq&limit=3"),
            (
                lambda: c.klines_batch("ashare", ["sh600001", "000002.SZ", "nope"], fields=["close", "volume"], limit=2),
                "/ashare/klines?symbols=sh600001,000002.SZ,nope&fields=close,volume&limit=2",
            ),
            (lambda: c.cross_section("ashare", "20250314", limit=3), "/ashare/klines?date=20250314&limit=3"),
            (lambda: c.detail("hkstock", "0700.HK"), "/hkstock/detail/hk00700"),
            (lambda: c.detail_batch("ashare", ["sh600001", "sz000002"]), "/ashare/detail?symbols=sh600001,sz000002"),
            (
                lambda: c.screen("ashare", bounds={"pe_ratio": {"min": 0, "max": 100}}, sort="pe_ratio", order="asc"),
                "/ashare/screen?min_pe_ratio=0&max_pe_ratio=100&sort=pe_ratio&order=asc",
            ),
            (lambda: c.calendar("ashare", start="2025-03-01", limit=5), "/ashare/calendar?start=2025-03-01&limit=5"),
            (lambda: c.actions("ashare", "sh600001"), "/ashare/actions/sh600001"),
            (lambda: c.macro(indicator="gdp"), "/macro?indicator=gdp"),
            (lambda: c.macro_indicators(), "/macro/indicators"),
        ]
        for call, path in cases:
            with self.subTest(path=path):
                self.assertEqual(call(), plain(path))
        self.assertEqual(c.quota()["plan"], "pro")

    def test_every_paged_endpoint_gives_every_page_with_all_true(self):
        c = self.client
        cases = [
            (lambda: c.screen("ashare", bounds={"close": {"min": 0}}, limit=2, all=True), "/ashare/screen?min_close=0&limit=500"),
            (lambda: c.cross_section("ashare", "2025-03-14", limit=2, all=True), "/ashare/klines?date=2025-03-14&limit=500"),
            (lambda: c.klines("ashare", "sh600001", start="2024-01-01", limit=2, all=True), "/ashare/klines/sh600001?start=2024-01-01&limit=500"),
            (lambda: c.symbols("ashare", limit=2, all=True), "/ashare/symbols?limit=100"),
            (lambda: c.calendar("ashare", limit=2, all=True), "/ashare/calendar?limit=500"),
            (lambda: c.macro(limit=2, all=True), "/macro?limit=500"),
        ]
        for call, path in cases:
            with self.subTest(path=path):
                whole = plain(path)
                got = call()
                self.assertGreater(whole["total"], 2)
                self.assertEqual(got["data"], whole["data"])
                self.assertEqual((got["count"], got["total"]), (whole["total"], whole["total"]))
                self.assertFalse(got.partial())

    def test_a_partial_page_warns_naming_count_and_total_or_raises_when_strict(self):
        page = self.client.cross_section("ashare", "2025-03-14", limit=2)
        total = plain("/ashare/klines?date=2025-03-14&limit=1")["total"]
        self.assertTrue(page.partial())
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            frame = page.to_pandas()
        self.assertEqual(len(frame), 2)
        self.assertEqual([w.category for w in caught], [PartialPageWarning])
        said = "a partial page: count 2 of total %d rows; ask with all=True for every row" % total
        self.assertEqual(str(caught[0].message), said, "count and total, each named once")
        with self.assertRaises(ValueError) as raised:
            page.to_pandas(strict=True)
        self.assertEqual(str(raised.exception), said)
        later = self.client.cross_section("ashare", "2025-03-14", limit=2, offset=2)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            later.to_pandas()
        self.assertEqual(
            str(caught[0].message),
            "a partial page: count 2 of total %d rows from offset 2; ask with all=True for every row" % total,
        )
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            self.assertEqual(len(self.client.cross_section("ashare", "2025-03-14", all=True).to_pandas()), total)

    def test_pages_are_followed_to_the_end(self):
        rows = list(self.client.rows("/ashare/screen", bounds={"close": {"min": 0}}, limit=2))
        whole = plain("/ashare/screen?min_close=0&limit=500")
        self.assertEqual(rows, whole["data"])
        self.assertGreater(len(rows), 2)
        window = self.client.all("/ashare/klines/sh600001", start="2024-01-01", limit=3)
        self.assertEqual(window["data"], plain("/ashare/klines/sh600001?start=2024-01-01&limit=500")["data"])

    def test_problems_raise_mdq_error(self):
        with self.assertRaises(MdqError) as caught:
            self.client.klines("ashare", "sh60000")
        e = caught.exception
        self.assertEqual((e.status, e.code, e.param), (404, "unknown_symbol", "symbol"))
        self.assertTrue(e.suggestions)
        self.assertIn(e.suggestions[0], e.detail)
        with self.assertRaises(MdqError) as caught:
            self.client.klines("ashare", "sh600001", period="fortnight")
        self.assertEqual((caught.exception.code, caught.exception.param), ("invalid_parameter", "period"))
        with self.assertRaises(MdqError) as caught:
            Client(URL, "mdq_wrong").markets()
        self.assertEqual((caught.exception.status, caught.exception.retry_after), (401, None))
        with self.assertRaises(ValueError):
            self.client.klines_batch("ashare", [])  # not sent: without symbols it would ask for a cross-section

    def test_429_and_503_are_retried_after_retry_after_a_bounded_number_of_times(self):
        def run(answers, **options):
            calls = []

            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    status, after = answers[min(len(calls), len(answers) - 1)]
                    calls.append(time.monotonic())
                    body = b'{"count":0,"data":[]}' if status == 200 else json.dumps(
                        {"status": status, "code": "rate_limited" if status == 429 else "not_ready", "detail": "x"}
                    ).encode()
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    if after is not None:
                        self.send_header("Retry-After", after)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)

                def log_message(self, *args):
                    pass

            stand_in = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            threading.Thread(target=stand_in.serve_forever, daemon=True).start()
            try:
                client = Client("http://127.0.0.1:%d" % stand_in.server_address[1], "k", **options)
                try:
                    return client.markets(), calls
                except MdqError as error:
                    return error, calls
            finally:
                stand_in.shutdown()
                stand_in.server_close()

        answer, calls = run([(429, "1"), (200, None)])
        self.assertEqual((answer, len(calls)), ({"count": 0, "data": []}, 2))
        self.assertGreaterEqual(calls[1] - calls[0], 1.0, "not sooner than Retry-After")
        error, calls = run([(503, "0")], retries=2)
        self.assertEqual((error.status, error.retry_after, len(calls)), (503, 0, 3))
        error, calls = run([(429, "0")], retries=0)
        self.assertEqual((error.code, len(calls)), ("rate_limited", 1))
        error, calls = run([(429, "3600")])
        self.assertEqual((error.retry_after, len(calls)), (3600, 1), "a spent daily quota is not waited for")
        error, calls = run([(400, None)])
        self.assertEqual((error.status, len(calls)), (400, 1))

    def test_to_pandas_holds_the_rows_with_dates(self):
        answer = self.client.klines_batch("ashare", ["sh600001", "sz000002"], period="month", adj="qfq", limit=500)
        frame = answer.to_pandas()
        self.assertEqual(list(frame.columns), answer["fields"])
        self.assertEqual(len(frame), answer["count"])
        self.assertEqual(str(frame["date"].dtype), "datetime64[ns]")
        self.assertEqual(list(frame["close"]), [r["close"] for r in answer.rows()])
        csv_frame = self.client.frame("/ashare/klines", symbols=["sh600001", "sz000002"], period="month", adj="qfq", limit=500)
        self.assertEqual(list(csv_frame["close"]), list(frame["close"]))
        self.assertEqual(list(csv_frame["date"]), list(frame["date"]))

    def test_export_to_a_file_and_a_dataframe(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "hk.csv")
            self.client.export("hkstock", path)
            with open(path, "rb") as f:
                self.assertEqual(f.read(), raw("/hkstock/export"))
        buffer = io.BytesIO()
        self.client.export("hkstock", buffer, format="ndjson")
        self.assertEqual(buffer.getvalue(), raw("/hkstock/export?format=ndjson"))
        frame = self.client.export("ashare", symbols=["sh600001"], fields=["c"])
        self.assertEqual(len(frame), plain("/ashare/klines/sh600001?limit=1")["total"])
        self.assertEqual(list(frame.columns), ["symbol", "date", "close", "adj_factor"])
        lines = self.client.export("ashare", symbols=["sh600001"], fields=["c"], format="ndjson")
        self.assertEqual(list(lines["close"]), list(frame["close"]))
        self.assertEqual(list(lines["date"]), list(frame["date"]))
        with self.assertRaises(ValueError):
            self.client.export("ashare", format="arrow")  # an Arrow stream goes to a file


if __name__ == "__main__":
    unittest.main()
