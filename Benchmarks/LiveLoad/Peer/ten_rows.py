"""The peer of `Benchmarks/LiveLoad/Scenes/ten-rows.json` for `compare_peers.py`: the same
ten blog rows, each with its like count and a Like button, as a pyview-web LiveView (a
Python port of Phoenix LiveView). Run by `compare_peers.py` under uvicorn; not part of
Scenery.

    uvicorn --app-dir Benchmarks/LiveLoad/Peer ten_rows:app --port 8000
"""
from dataclasses import dataclass, field

from pyview import LiveView, LiveViewSocket, PyView


@dataclass
class Row:
    id: int
    title: str
    byline: str
    excerpt: str
    likes: int
    liked: bool


@dataclass
class TenRows:
    rows: list[Row] = field(default_factory=list)


def alice_rows():
    """Alice's ten newest blogs, as the demo data has them (titles and counts alike)."""
    return [
        Row(27 - index, f"Blog {27 - index}", f"By Alice Liddell · 2026-01-{27 - index:02} 09:00",
            f"Notes number {27 - index} from the other side of the looking glass.", index % 5, False)
        for index in range(10)
    ]


class TenRowsView(LiveView[TenRows]):
    async def mount(self, socket: LiveViewSocket[TenRows], session):
        socket.context = TenRows(rows=alice_rows())

    async def handle_event(self, event, payload, socket: LiveViewSocket[TenRows]):
        if event == "like":
            wanted = int(payload["id"])
            for row in socket.context.rows:
                if row.id == wanted:
                    row.liked = not row.liked
                    row.likes += 1 if row.liked else -1


app = PyView()
app.add_live_view("/", TenRowsView)
