"""Example: ashare's monthly qfq bars of ten symbols into a pandas DataFrame (MDQ_URL, MDQ_KEY)."""

import os

from mdq_client import Client

client = Client(os.environ.get("MDQ_URL", "http://127.0.0.1:8080"), os.environ["MDQ_KEY"])
symbols = [s["symbol"] for s in client.symbols("ashare", limit=10)["data"]]

bars = client.klines_batch("ashare", symbols, period="month", adj="qfq", limit=500).to_pandas()

print(bars.groupby("symbol").size().to_json())
