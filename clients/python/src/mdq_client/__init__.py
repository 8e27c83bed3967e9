"""The market data query service from Python: standard library only; pandas and websockets optional.

    from mdq_client import Client
    client = Client("http://127.0.0.1:8080", key)
    bars = client.klines_batch("ashare", ["600000.SH", "000001.SZ"], period="month", adj="qfq", fields="*").to_pandas()
    day = client.cross_section("ashare", "2025-03-14", all=True).to_pandas()
    for message in client.stream([{"channel": "editions"}]):  # needs python3-websockets
        print(message)
"""

from .client import Answer, Client, MdqError, PartialPageWarning
from .stream import StreamError

__all__ = ["Answer", "Client", "MdqError", "PartialPageWarning", "StreamError"]
