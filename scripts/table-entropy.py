#!/usr/bin/env python3
"""Measure how small a tablebase directory gets with a "values-only" encoding.

What it measures
----------------
Each 8-byte record (format.rs, encoding 1: best, second, pass as packed
Scores or 0xFFFF for none, then flags: bits 0..3 the walk of best, bit 4 the
game is over) is reduced to the values-only tuple

    (terminal, value(best), value(second), value(pass), walk)

where a value is the top 3 bits of a packed Score (0 no-result, 1 self-lose,
2 both-lose, 3 both-win, 4 self-win) or "none", and walk is the best walk
piece only when value(second) != value(best) (otherwise 0). Depths are
dropped. A record that is Summary::default() (best, second and pass none,
flags 0: a node with no state) is counted as a hole and kept as its own
symbol; any other record that format.rs `decode` would reject stops the
script.

For the whole directory and per |F| (number of fixed pieces) it reports:

* nodes, holes, distinct tuples, order-0 entropy of the tuple (bits per
  node, over the pooled distribution) and the per-file order-0 entropy
  (each file's own distribution, node-weighted), and the fixed-width bits
  ceil(log2(distinct));
* the size when each file's tuples are mapped to one byte per node (a
  per-file dictionary of its distinct tuples, sorted by frequency; it stops
  if a file has more than 256) and that byte stream is cut into 64 KiB
  blocks (65,536 nodes; blocks do not span files), each compressed on its
  own with zlib level 9 (raw deflate, wbits=-15) and with lzma preset 6
  (raw LZMA2, no .xz container): total compressed bytes and bits per node.
  Not included: the per-file dictionaries (reported separately as 2 bytes
  per distinct tuple), block offset tables (the block count is reported)
  and headers.

States per node are not measured (they depend on the board, which the
records do not hold).

Files are streamed (two passes per file: count, then map and compress),
one file at a time, on one core.

Usage
-----
    python3 scripts/table-entropy.py DIR [DIR ...] [--sample K]

    DIR       a table directory, e.g. /tmp/tb10new/n10-always
    --sample  take every K-th file (sorted by F) within each |F| group
              (default 1: every file); the output states what was used.
"""

import argparse
import collections
import lzma
import math
import os
import struct
import zlib

RECORD = 8
BLOCK_NODES = 1 << 16  # one byte per node: 64 KiB blocks
CHUNK_BLOCKS = 16  # pass 1 reads 16 blocks (8 MiB of records) at a time
HOLE = "hole"

VALUE_NAMES = {0: "nores", 1: "slose", 2: "blose", 3: "bwin", 4: "swin", None: "-"}

# High byte of a packed score -> its 3-bit value code (7 = 0xFFFF, none).
SHR5 = bytes(b >> 5 for b in range(256))
# High bytes 0xA0..0xFE are codes 5, 6 or a 7 that is not 0xFFFF: invalid.
BAD_HIGH = bytes(1 if 0xA0 <= b < 0xFF else 0 for b in range(256))
LITTLE = struct.pack("=I", 1)[0] == 1


def eprint(msg):
    os.write(2, (msg + "\n").encode())


def read_header(f, path):
    fixed = f.read(32)
    if len(fixed) < 32:
        raise SystemExit(f"{path}: shorter than the header")
    magic, version, n, rule, enc, _, fset, _, subs, total = struct.unpack("<8sIBBBBHHIQ", fixed)
    if magic != b"CCLOCKTB" or version != 1 or enc != 1:
        raise SystemExit(f"{path}: magic {magic!r} version {version} encoding {enc}: not supported")
    counts = struct.unpack(f"<{subs}Q", f.read(8 * subs))
    if sum(counts) != total:
        raise SystemExit(f"{path}: sub-table sizes do not add up to the total")
    nfree = n - bin(fset).count("1")
    if subs != 1 << nfree:
        raise SystemExit(f"{path}: {subs} sub-tables, expected {1 << nfree}")
    blocks = -(-total * RECORD // 65536)
    expect = 32 + 8 * subs + RECORD * total + 8 * blocks + 8
    size = os.fstat(f.fileno()).st_size
    if size != expect:
        raise SystemExit(f"{path}: {size} bytes, expected {expect}")
    return n, rule, fset, total, 32 + 8 * subs


def keys_of(data):
    """One 4-byte key per record: value codes of best, second, pass, flags low
    byte. Checks the flags' high byte is 0 and no score code is invalid."""
    nrec = len(data) // RECORD
    if data[7::8].count(0) != nrec:
        raise SystemExit("a record has flags bits above 7 set (invalid record)")
    out = bytearray(4 * nrec)
    for j, off in enumerate((1, 3, 5)):
        hi = data[off::8]
        if hi.translate(BAD_HIGH).count(1):
            raise SystemExit("a record has an invalid score code (5, 6 or 7 not 0xFFFF)")
        out[j::4] = hi.translate(SHR5)
    out[3::4] = data[6::8]
    return out


def classify(key, n):
    """The values-only tuple of raw key `key` (an int from keys_of)."""
    b = key.to_bytes(4, "little" if LITTLE else "big")
    cb, cs, cp, flags = b
    if cb == 7 and cs == 7 and cp == 7 and flags == 0:
        return HOLE
    walk, term = flags & 15, flags >> 4 & 1
    bad = flags >> 5 != 0 or walk > n or any(c in (5, 6) for c in (cb, cs, cp))
    vb, vs, vp = (None if c == 7 else c for c in (cb, cs, cp))
    if term:
        bad = bad or vb is None or vs is not None or vp is not None
    else:
        bad = bad or (vb is None and vp is None)
    if bad:
        raise SystemExit(f"invalid record (codes {cb},{cs},{cp}, flags {flags:#x})")
    return (term, vb, vs, vp, walk if vs != vb else 0)


def entropy(counter):
    total = sum(counter.values())
    h = -sum(c / total * math.log2(c / total) for c in counter.values() if c) if total else 0.0
    return h if h > 0 else 0.0


class Stats:
    def __init__(self):
        self.files = 0
        self.nodes = 0
        self.holes = 0
        self.tuples = collections.Counter()
        self.file_h_bits = 0.0  # sum over files of nodes * H0(file)
        self.max_file_distinct = 0
        self.dict_bytes = 0
        self.blocks = 0
        self.zlib = 0
        self.lzma = 0

    def add(self, other):
        self.files += other.files
        self.nodes += other.nodes
        self.holes += other.holes
        self.tuples.update(other.tuples)
        self.file_h_bits += other.file_h_bits
        self.max_file_distinct = max(self.max_file_distinct, other.max_file_distinct)
        self.dict_bytes += other.dict_bytes
        self.blocks += other.blocks
        self.zlib += other.zlib
        self.lzma += other.lzma


LZMA_FILTERS = [{"id": lzma.FILTER_LZMA2, "preset": 6}]


def process_file(path):
    st = Stats()
    with open(path, "rb") as f:
        n, _rule, fset, total, payload = read_header(f, path)
        # Pass 1: count raw keys.
        raw = collections.Counter()
        left = total
        while left:
            take = min(left, BLOCK_NODES * CHUNK_BLOCKS)
            data = f.read(take * RECORD)
            if len(data) != take * RECORD:
                raise SystemExit(f"{path}: short read")
            raw.update(memoryview(keys_of(data)).cast("I"))
            left -= take
        tuples = collections.Counter()
        of_key = {}
        for k, c in raw.items():
            t = classify(k, n)
            of_key[k] = t
            tuples[t] += c
        if len(tuples) > 256:
            raise SystemExit(f"{path}: {len(tuples)} distinct tuples, more than 256")
        order = sorted(tuples, key=lambda t: (-tuples[t], str(t)))
        symbol = {t: i for i, t in enumerate(order)}
        local = {k: symbol[t] for k, t in of_key.items()}
        # Pass 2: one byte per node, compressed per 64 KiB block.
        f.seek(payload)
        left = total
        while left:
            take = min(left, BLOCK_NODES)
            data = f.read(take * RECORD)
            block = bytes(map(local.__getitem__, memoryview(keys_of(data)).cast("I")))
            z = zlib.compressobj(9, 8, -15)
            st.zlib += len(z.compress(block) + z.flush())
            st.lzma += len(lzma.compress(block, format=lzma.FORMAT_RAW, filters=LZMA_FILTERS))
            st.blocks += 1
            left -= take
    st.files = 1
    st.nodes = total
    st.holes = tuples.get(HOLE, 0)
    st.tuples = tuples
    st.file_h_bits = total * entropy(tuples)
    st.max_file_distinct = len(tuples)
    st.dict_bytes = 2 * len(tuples)
    return n, fset, st


def row(label, st):
    d = len(st.tuples)
    bpn = lambda b: 8 * b / st.nodes if st.nodes else 0.0
    return [
        label,
        str(st.files),
        f"{st.nodes:,}",
        f"{st.holes:,}",
        str(d),
        str(st.max_file_distinct),
        f"{entropy(st.tuples):.4f}",
        f"{st.file_h_bits / st.nodes:.4f}" if st.nodes else "0",
        str(math.ceil(math.log2(d)) if d > 1 else 0),
        f"{st.blocks:,}",
        f"{st.zlib:,}",
        f"{bpn(st.zlib):.4f}",
        f"{st.lzma:,}",
        f"{bpn(st.lzma):.4f}",
        f"{st.dict_bytes:,}",
    ]


HEAD = [
    "|F|", "files", "nodes", "holes", "distinct", "max/file", "H0 b/n", "H0file b/n",
    "raw b/n", "blocks", "zlib9 B", "zlib9 b/n", "lzma6 B", "lzma6 b/n", "dict B",
]


def table(rows):
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths)) for r in rows)


def run_dir(d, sample):
    names = sorted(x for x in os.listdir(d) if x.endswith(".cctb"))
    groups = collections.defaultdict(list)
    for name in names:
        fset = int(name[1:-5], 16)
        groups[bin(fset).count("1")].append(name)
    chosen = []
    for k in sorted(groups):
        chosen += [(k, x) for i, x in enumerate(sorted(groups[k])) if i % sample == 0]
    t0 = os.times().elapsed
    per = collections.defaultdict(Stats)
    n_slots = None
    for i, (k, name) in enumerate(chosen):
        n, fset, st = process_file(os.path.join(d, name))
        n_slots = n
        per[k].add(st)
        if st.nodes > 20_000_000 or (i + 1) % 200 == 0 or i + 1 == len(chosen):
            eprint(f"  {d}: {i + 1}/{len(chosen)} files, {name} done, "
                   f"{os.times().elapsed - t0:.0f} s")
    everything = Stats()
    for k in sorted(per):
        everything.add(per[k])
    wall = os.times().elapsed - t0
    print(f"== {d}  (N={n_slots})")
    how = "none (every file)" if sample == 1 else f"every {sample}th file (sorted by F) per |F| group"
    print(f"files present: {len(names)}; sampling: {how} -> {len(chosen)} files processed; "
          f"wall {wall:.1f} s")
    print("per |F| group (files present: "
          + ", ".join(f"{k}:{len(groups[k])}" for k in sorted(groups)) + ")")
    rows = [HEAD] + [row(str(k), per[k]) for k in sorted(per)] + [row("all", everything)]
    print(table(rows))
    print("distinct tuples over the directory (terminal, best, second, pass, walk): "
          f"{len(everything.tuples)}; top 12 by count:")
    tot = everything.nodes
    for t, c in everything.tuples.most_common(12):
        if t == HOLE:
            label = HOLE
        else:
            label = (f"term={t[0]} best={VALUE_NAMES[t[1]]} second={VALUE_NAMES[t[2]]} "
                     f"pass={VALUE_NAMES[t[3]]} walk={t[4]}")
        print(f"  {c / tot:8.4%}  {label}")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dirs", nargs="+", help="table directories (…/n{N}-{rule})")
    ap.add_argument("--sample", type=int, default=1,
                    help="take every K-th file (sorted by F) per |F| group")
    args = ap.parse_args()
    if args.sample < 1:
        raise SystemExit("--sample must be at least 1")
    print("block = 65,536 nodes (64 KiB of one-byte symbols), compressed independently; "
          "zlib level 9 raw deflate, lzma preset 6 raw LZMA2; b/n = bits per node")
    print("H0 = order-0 entropy of the pooled tuple distribution; H0file = node-weighted "
          "order-0 entropy of each file's own distribution; raw = ceil(log2(distinct)); "
          "dict B = 2 bytes per distinct tuple per file (not in the compressed totals)")
    print()
    for d in args.dirs:
        run_dir(d, args.sample)


if __name__ == "__main__":
    main()
