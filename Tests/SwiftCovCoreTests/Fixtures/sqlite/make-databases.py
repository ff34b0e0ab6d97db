#!/usr/bin/env python3
# Regenerates the SQLite fixtures with the reference implementation (Python's sqlite3 module) and
# what it reads back from each, which the tests compare the decoder with:
#   python3 Tests/SwiftCovCoreTests/Fixtures/sqlite/make-databases.py
#
# Databases: every page size from 512 to 65,536; reserved bytes at the end of each page; UTF-8,
# UTF-16le and UTF-16be text; integers of every stored width, reals (negative zero, infinities,
# subnormals), text and blobs from empty to several overflow pages long; NULLs; rowids from the
# smallest to the largest; INTEGER PRIMARY KEY (the rowid's alias); columns added by ALTER TABLE
# after rows were written; WITHOUT ROWID tables (stored as index b-trees, key first); indexes;
# deleted rows (freelist pages); auto-vacuum (pointer-map pages); enough rows for interior pages
# three levels deep. Contents come from a fixed seed.
#
# Each NAME.sqlite3 has NAME.json: {"tables": {table: {"columns": [...], "rows": [[rowid, v...]]}},
# "indexes": {index: {"table": t, "rows": [[v..., rowid]]}}}, rows in the order SQLite stores them
# (rowid order; key order for WITHOUT ROWID tables and indexes). A value is
# [type, text]: ["null", ""], ["integer", "-42"], ["real", "0x1.8p+1"] (float.hex), ["text", "…"],
# ["blob", "hex"].
import json, os, random, sqlite3, sys

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261129)


def text_value(length):
    alphabet = "abcdefghijklmnopqrstuvwxyz ÄÖÜé€😀\u202e\n"
    return "".join(rng.choice(alphabet) for _ in range(length))


INTEGERS = [0, 1, -1, 2, 127, -128, 128, 255, 32767, -32768, 32768, 2**23 - 1, -(2**23), 2**23,
            2**31 - 1, -(2**31), 2**31, 2**47 - 1, -(2**47), 2**47, 2**63 - 1, -(2**63)]
REALS = [0.5, -0.0, 1e308, -1e308, 5e-324, float("inf"), float("-inf"), 3.141592653589793, 1e-10]


def typed(value):
    if value is None:
        return ["null", ""]
    if isinstance(value, int):
        return ["integer", str(value)]
    if isinstance(value, float):
        return ["real", value.hex()]
    if isinstance(value, str):
        return ["text", value]
    return ["blob", bytes(value).hex()]


def build(name, page_size, encoding="UTF-8", reserved=0, rows=60, vacuum=False):
    path = os.path.join(here, name + ".sqlite3")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA page_size = {page_size}")
    db.execute(f"PRAGMA encoding = '{encoding}'")
    if vacuum:
        db.execute("PRAGMA auto_vacuum = FULL")
    if reserved:
        # Reserved bytes can only be set through the file control; VACUUM keeps what the header says.
        db.execute("CREATE TABLE _r(x)")
        db.commit()
        db.close()
        with open(path, "r+b") as f:
            f.seek(20)
            f.write(bytes([reserved]))
        db = sqlite3.connect(path)
        db.execute("VACUUM")
        db.execute("DROP TABLE _r")
    db.execute('CREATE TABLE "Values" (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, i INTEGER, r REAL, t TEXT, b BLOB, n)')
    db.execute("CREATE TABLE TestCases -- like Xcode's\n (identifier TEXT, [name] TEXT, `duration` REAL, "
                "CONSTRAINT pk UNIQUE (identifier))")
    db.execute("CREATE TABLE Keyed (b TEXT, a INTEGER, c BLOB, PRIMARY KEY (a, b)) WITHOUT ROWID")
    db.execute("CREATE INDEX ValuesByKind ON \"Values\" (kind, i DESC)")
    values = []
    for value in INTEGERS:
        values.append(("integer", value, None, None, None, None))
    for value in REALS:
        values.append(("real", None, value, None, None, 1.5))
    # Lengths around the page's local payload limit and past it (one and several overflow pages);
    # on large pages, only blobs are that long, to keep the fixtures small.
    lengths = [0, 1, 10, 100, page_size // 2, page_size - 30, page_size, 3 * page_size + 7]
    if page_size >= 16384:
        lengths = [0, 1, 100, page_size + 7]
    for length in lengths:
        values.append(("text", None, None, text_value(min(length, 3000)), None, "x"))
        values.append(("blob", None, None, None, bytes(rng.getrandbits(8) for _ in range(length)), b""))
    values.append(("nulls", None, None, None, None, None))
    db.executemany('INSERT INTO "Values" (kind, i, r, t, b, n) VALUES (?, ?, ?, ?, ?, ?)', values)
    db.execute('INSERT INTO "Values" (id, kind, i) VALUES (?, ?, ?)', (2**63 - 1, "largest rowid", 1))
    db.execute('INSERT INTO "Values" (id, kind, i) VALUES (?, ?, ?)', (-(2**63), "smallest rowid", 2))
    for index in range(rows):
        db.execute("INSERT INTO TestCases VALUES (?, ?, ?)",
                   (f"test://Suite{index % 7}/test{index}()", text_value(rng.randint(0, 40)), rng.random() * 10))
        db.execute("INSERT INTO Keyed VALUES (?, ?, ?)", (text_value(rng.randint(0, 12)) + str(index), rng.randint(-5, 5), bytes([index % 256])))
    # Deleted rows leave freelist pages; a column added afterwards is missing from older records.
    db.execute("DELETE FROM TestCases WHERE rowid % 3 = 0")
    db.execute("ALTER TABLE TestCases ADD COLUMN added TEXT")
    db.execute("INSERT INTO TestCases VALUES ('test://late', 'late', 0.25, 'new column')")
    db.commit()

    expected = {"tables": {}, "indexes": {}}
    for (table,) in db.execute("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name"):
        columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
        without_rowid = "WITHOUT ROWID" in db.execute("SELECT sql FROM sqlite_schema WHERE name = ?", (table,)).fetchone()[0]
        if without_rowid:
            pk = [row[1] for row in sorted(db.execute(f'PRAGMA table_info("{table}")'), key=lambda r: r[5]) if row[5]]
            order = ", ".join(f'"{c}"' for c in pk)
            rows_ = [[None] + list(r) for r in db.execute(f'SELECT * FROM "{table}" ORDER BY {order}')]
        else:
            rows_ = [list(r) for r in db.execute(f'SELECT rowid, * FROM "{table}" ORDER BY rowid')]
        expected["tables"][table] = {"columns": columns, "rows": [[typed(v) for v in r] for r in rows_]}
    for (index, table) in db.execute("SELECT name, tbl_name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL"):
        info = list(db.execute(f'PRAGMA index_xinfo("{index}")'))
        keys = [(row[2], row[3]) for row in info if row[5] == 1]
        order = ", ".join(f'"{c}" {"DESC" if desc else "ASC"}' for (c, desc) in keys) + ", rowid"
        columns = ", ".join(f'"{c}"' for (c, _) in keys) + ", rowid"
        rows_ = db.execute(f'SELECT {columns} FROM "{table}" ORDER BY {order}')
        expected["indexes"][index] = {"table": table, "rows": [[typed(v) for v in r] for r in rows_]}
    db.close()
    with open(os.path.join(here, name + ".json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, ensure_ascii=True, indent=0)
        f.write("\n")


for size in [512, 1024, 2048, 4096, 8192, 16384, 32768, 65536]:
    small = size >= 16384
    build(f"page-{size}", size, rows=8 if small else 300 if size <= 1024 else 60)
build("utf16le", 1024, encoding="UTF-16le")
build("utf16be", 1024, encoding="UTF-16be")
build("reserved-32", 1024, reserved=32)
build("auto-vacuum", 1024, vacuum=True, rows=100)
