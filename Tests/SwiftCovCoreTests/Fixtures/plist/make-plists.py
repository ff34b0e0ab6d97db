#!/usr/bin/env python3
"""Writes binary property lists with Python's plistlib (the outside reference for swiftcov's
reader) and, beside each, what plistlib reads back, as JSON with the type of every value:
{"int": "1"} (as text: 64 bits), {"real": 0.5}, {"string": "…"}, {"data": "hex"}, {"date": seconds since 2001},
{"uid": 3}, {"bool": true}, {"array": […]}, {"dict": [[key, value], …]} (keys in file order)."""
import datetime, json, plistlib, random, sys

def tagged(value):
    if isinstance(value, bool): return {"bool": value}
    if isinstance(value, int): return {"int": str(value)}
    if isinstance(value, float): return {"real": value}
    if isinstance(value, str): return {"string": value}
    if isinstance(value, bytes): return {"data": value.hex()}
    if isinstance(value, plistlib.UID): return {"uid": value.data}
    if isinstance(value, datetime.datetime):
        epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
        return {"date": (value.replace(tzinfo=datetime.timezone.utc) - epoch).total_seconds()}
    if isinstance(value, list): return {"array": [tagged(v) for v in value]}
    if isinstance(value, dict): return {"dict": [[k, tagged(v)] for k, v in value.items()]}
    raise TypeError(type(value))

random.seed(8878)
lists = {
    "scalars": {
        "zero": 0, "small": 7, "byte": 255, "short": 65535, "int": 2**31, "long": 2**62, "negative": -1,
        "minimum": -2**63, "real": 0.1, "negativeReal": -1e300, "true": True, "false": False,
        "date": datetime.datetime(2023, 1, 4, 9, 40, 30),
        "empty": "", "ascii": "IDESchemeActionCodeCoverage", "unicode": "Grüße, 世界 🎬",
        "data": bytes(range(40)), "emptyData": b"", "uid": plistlib.UID(3), "bigUID": plistlib.UID(70000),
    },
    "nested": {"targets": [{"name": "App", "files": [{"path": "/a/b.swift", "lines": [1, 2, 3]}] * 3}] * 2,
               "set": [[], [[]], {"k": {}}]},
    "large": {"numbers": list(range(300)), "strings": ["s%d" % i for i in range(40)],
              "keys": {"key%03d" % i: i for i in range(100)}, "long": "x" * 20000},
    "random": [random.choice([random.randint(-2**63, 2**63 - 1), random.random(), "r%d" % random.randint(0, 9)])
               for _ in range(500)],
}
for name, value in lists.items():
    data = plistlib.dumps(value, fmt=plistlib.FMT_BINARY, sort_keys=False)
    with open(name + ".bplist", "wb") as f: f.write(data)
    with open(name + ".json", "w") as f:
        json.dump(tagged(plistlib.loads(data)), f, ensure_ascii=False, sort_keys=True)
        f.write("\n")
