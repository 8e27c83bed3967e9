"""The Python client against a running server (MDQ_URL, MDQ_KEY: a pro key on the fixture snapshot):
every endpoint's method answers what a plain GET answers, lists and bounds go out the way the
server reads them, pages are followed, problems raise MdqError, pandas frames hold the rows,
the export reaches a file and a DataFrame, and the example runs."""

import io
import json
import os
import subprocess
import sys
import tempfile
import unittest
import urllib.request

from mdq_client import Client, MdqError

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
        self.assertEqual(caught.exception.status, 401)
        with self.assertRaises(ValueError):
            self.client.klines_batch("ashare", [])  # not sent: without symbols it would ask for a cross-section

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

    def test_the_example_runs(self):
        run = subprocess.run(
            [sys.executable, os.path.join(HERE, "..", "examples", "monthly_bars.py")],
            env=dict(os.environ),
            capture_output=True,
            text=True,
            check=False,
        )
        self.assertEqual(run.returncode, 0, run.stderr)
        counts = json.loads(run.stdout)
        self.assertGreaterEqual(len(counts), 5)
        self.assertTrue(all(n > 0 for n in counts.values()))


if __name__ == "__main__":
    unittest.main()
