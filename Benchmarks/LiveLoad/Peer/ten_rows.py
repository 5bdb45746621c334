"""The peer of `Benchmarks/LiveLoad/Scenes/ten-rows.json` for `compare_peers.py`: the same
ten blog rows, each with its like count and a Like button, as a pyview-web LiveView (a
Python port of Phoenix LiveView), reading its rows from SQLite and writing each like there
as Scenery's demo store does. Run by `compare_peers.py` under uvicorn; not part of Scenery.

    uvicorn --app-dir Benchmarks/LiveLoad/Peer ten_rows:app --port 8000

With `PEER_PUBSUB=1` (`fanout_floor.py`), every connected page subscribes to the blogs'
topic with pyview-web's PubSub, and a like is broadcast to them: each page takes the new
count into its row and sends its diff, as Scenery's live data shows a like on every open
page of the blog.
"""
import itertools
import os
import sqlite3
import tempfile
import threading
from dataclasses import dataclass, field

from pyview import LiveView, LiveViewSocket, PyView
from pyview.live_socket import is_connected

PUBSUB = os.environ.get("PEER_PUBSUB") == "1"


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
    viewer: int = 0
    rows: list[Row] = field(default_factory=list)


def alice_rows():
    """Alice's ten newest blogs, as the demo data has them (titles and counts alike)."""
    return [
        Row(27 - index, f"Blog {27 - index}", f"By Alice Liddell · 2026-01-{27 - index:02} 09:00",
            f"Notes number {27 - index} from the other side of the looking glass.", index % 5, False)
        for index in range(10)
    ]


class Store:
    """The rows and their likes in SQLite, as Scenery's demo store keeps them: a page reads
    its rows when it mounts, and a like is written (in a transaction, with the count read
    back) before the page shows it, so both servers do the same work per like. One
    connection behind a lock, as Scenery's SQLite store has."""

    def __init__(self, path):
        self.lock = threading.Lock()
        self.connection = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self.connection.execute("PRAGMA journal_mode=WAL")
        self.connection.execute("PRAGMA synchronous=NORMAL")
        with self.lock:
            self.connection.executescript(
                "CREATE TABLE IF NOT EXISTS blogs (id INTEGER PRIMARY KEY, title TEXT, byline TEXT, excerpt TEXT);"
                "CREATE TABLE IF NOT EXISTS likes (blog INTEGER, user INTEGER, PRIMARY KEY (blog, user));")
            if self.connection.execute("SELECT COUNT(*) FROM blogs").fetchone()[0] == 0:
                for row in alice_rows():
                    self.connection.execute("INSERT INTO blogs VALUES (?, ?, ?, ?)", (row.id, row.title, row.byline, row.excerpt))
                    for user in range(row.likes):
                        self.connection.execute("INSERT INTO likes VALUES (?, ?)", (row.id, 1000 + user))

    def rows(self, viewer):
        with self.lock:
            found = self.connection.execute(
                "SELECT b.id, b.title, b.byline, b.excerpt, (SELECT COUNT(*) FROM likes WHERE blog = b.id),"
                " EXISTS (SELECT 1 FROM likes WHERE blog = b.id AND user = ?) FROM blogs b ORDER BY b.id DESC", (viewer,)).fetchall()
        return [Row(*row[:5], bool(row[5])) for row in found]

    def set_liked(self, liked, blog, viewer):
        with self.lock:
            self.connection.execute("BEGIN IMMEDIATE")
            if liked:
                self.connection.execute("INSERT OR IGNORE INTO likes VALUES (?, ?)", (blog, viewer))
            else:
                self.connection.execute("DELETE FROM likes WHERE blog = ? AND user = ?", (blog, viewer))
            count = self.connection.execute("SELECT COUNT(*) FROM likes WHERE blog = ?", (blog,)).fetchone()[0]
            self.connection.execute("COMMIT")
        return count


store = Store(os.environ.get("PEER_DATABASE") or os.path.join(tempfile.mkdtemp(prefix="pyview-peer-"), "peer.sqlite"))
viewers = itertools.count(1)


class TenRowsView(LiveView[TenRows]):
    async def mount(self, socket: LiveViewSocket[TenRows], session):
        viewer = next(viewers)  # each page likes as a person of its own
        socket.context = TenRows(viewer=viewer, rows=store.rows(viewer))
        if PUBSUB and is_connected(socket):
            await socket.subscribe("blogs")

    async def handle_event(self, event, payload, socket: LiveViewSocket[TenRows]):
        if event == "like":
            wanted = int(payload["id"])
            for row in socket.context.rows:
                if row.id == wanted:
                    row.liked = not row.liked
                    row.likes = store.set_liked(row.liked, row.id, socket.context.viewer)
                    if PUBSUB:
                        await socket.broadcast("blogs", {"id": row.id, "likes": row.likes})

    async def handle_info(self, event, socket: LiveViewSocket[TenRows]):
        for row in socket.context.rows:
            if row.id == event.payload["id"]:
                row.likes = event.payload["likes"]


app = PyView()
app.add_live_view("/", TenRowsView)
