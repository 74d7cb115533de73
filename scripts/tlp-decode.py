#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Decodes a TLP trace (the simulator's --tlp-trace FILE) from the PCI Express Base
Specification's layout alone, without the simulator's code: one line per TLP with its header
fields, or with --check only a count per kind. Exits non-zero, naming the line, on a malformed
packet.

Each trace line is `<time in ps> <down|up> <TLP bytes as hex pairs>`; lines starting with '#'
are comments. The header double words are sent most significant byte first, the payload follows.

usage: tlp-decode.py [--check] TRACE
"""
import argparse
import collections
import sys

# (Fmt, Type) -> kind, for the kinds the model sends: memory read and write (3- or 4-DW
# headers), completions with and without data, type-0 configuration read and write.
KINDS = {
    (0b000, 0b00000): "MRd",
    (0b001, 0b00000): "MRd",
    (0b010, 0b00000): "MWr",
    (0b011, 0b00000): "MWr",
    (0b000, 0b01010): "Cpl",
    (0b010, 0b01010): "CplD",
    (0b000, 0b00100): "CfgRd0",
    (0b010, 0b00100): "CfgWr0",
}
STATUS = {0: "SC", 1: "UR", 2: "CRS", 4: "CA"}


class Malformed(Exception):
    pass


def dword(b, i):
    return int.from_bytes(b[4 * i : 4 * i + 4], "big")


def check_byte_enables(kind, length, addr, fbe, lbe):
    """Byte enable rules (2.2.5): none in the last DW of a 1-DW request, some in both end DWs of
    a longer one, and no gap unless the request is one DW or two quadword-aligned DWs."""
    if length == 1:
        if lbe:
            raise Malformed(f"{kind} of 1 DW with Last DW BE {lbe:x}")
        return
    if not fbe or not lbe:
        raise Malformed(f"{kind} of {length} DW with First/Last DW BE {fbe:x}/{lbe:x}")
    if length == 2 and addr % 8 == 0:
        return
    if fbe not in (0x8, 0xC, 0xE, 0xF) or lbe not in (0x1, 0x3, 0x7, 0xF):
        raise Malformed(f"{kind} of {length} DW with a gap in its byte enables {fbe:x}/{lbe:x}")


def decode(b):
    """Returns (kind, description) of the TLP in bytes `b`; raises Malformed."""
    if len(b) < 12:
        raise Malformed(f"{len(b)} bytes, shorter than a 3-DW header")
    dw0 = dword(b, 0)
    fmt, typ = dw0 >> 29, (dw0 >> 24) & 0x1F
    kind = KINDS.get((fmt, typ))
    if kind is None:
        raise Malformed(f"Fmt {fmt:03b} Type {typ:05b} reserved or not modeled")
    # TC, TD, EP, Attr, AT and the other DW0 fields between Type and Length: all 0 in the model.
    if dw0 & 0x00FFFC00:
        raise Malformed(f"{kind} DW0 {dw0:08x} sets TC/TD/EP/Attr/AT")
    header = 16 if fmt & 1 else 12
    length_field = dw0 & 0x3FF
    if kind == "Cpl":
        if length_field:
            raise Malformed(f"Cpl with Length {length_field}")
        length = 0
    else:
        length = length_field or 1024
    with_data = bool(fmt & 0b010)
    want = header + (4 * length if with_data else 0)
    if len(b) != want:
        raise Malformed(f"{kind} of {len(b)} bytes, its header and Length {length} need {want}")
    dw1, dw2 = dword(b, 1), dword(b, 2)

    if kind in ("MRd", "MWr", "CfgRd0", "CfgWr0"):
        req, tag, lbe, fbe = dw1 >> 16, (dw1 >> 8) & 0xFF, (dw1 >> 4) & 0xF, dw1 & 0xF
    if kind in ("MRd", "MWr"):
        if header == 16:
            addr = (dw2 << 32) | dword(b, 3)
            if addr < 1 << 32:
                raise Malformed(f"{kind} 4-DW header with address {addr:#x} below 4 GiB")
        else:
            addr = dw2
        if addr & 3:
            raise Malformed(f"{kind} address {addr:#x} sets bits [1:0]")
        if addr % 4096 + 4 * length > 4096:
            raise Malformed(f"{kind} at {addr:#x} of {length} DW crosses a 4 KiB boundary")
        check_byte_enables(kind, length, addr, fbe, lbe)
        return kind, (f"{kind} req={req:04x} tag={tag} addr={addr:#x} len={length} "
                      f"fbe={fbe:x} lbe={lbe:x}")
    if kind in ("CfgRd0", "CfgWr0"):
        if length != 1:
            raise Malformed(f"{kind} of {length} DW")
        check_byte_enables(kind, length, 0, fbe, lbe)
        if dw2 & 0x0000F003:
            raise Malformed(f"{kind} DW2 {dw2:08x} sets reserved bits")
        bus, dev, fn = dw2 >> 24, (dw2 >> 19) & 0x1F, (dw2 >> 16) & 0x7
        reg = dw2 & 0xFFC  # Extended Register Number [11:8], Register Number [7:2]
        return kind, (f"{kind} req={req:04x} tag={tag} bdf={bus:02x}:{dev:02x}.{fn:x} "
                      f"reg={reg:#05x} fbe={fbe:x}")
    # Completions.
    cpl, status, bcm, byte_count = dw1 >> 16, (dw1 >> 13) & 0x7, (dw1 >> 12) & 1, dw1 & 0xFFF
    if status not in STATUS:
        raise Malformed(f"{kind} with reserved status {status}")
    if bcm:
        raise Malformed(f"{kind} with BCM set")
    if dw2 & 0x80:
        raise Malformed(f"{kind} DW2 {dw2:08x} sets reserved bit 7")
    req, tag, lower = dw2 >> 16, (dw2 >> 8) & 0xFF, dw2 & 0x7F
    return kind, (f"{kind} cpl={cpl:04x} {STATUS[status]} req={req:04x} tag={tag} len={length} "
                  f"bc={byte_count or 4096} la={lower:#04x}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="print only a count per kind")
    ap.add_argument("trace")
    args = ap.parse_args()
    counts = collections.Counter()
    try:
        f = open(args.trace)
    except OSError as e:
        sys.exit(f"{args.trace}: {e.strerror}")
    with f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            try:
                if len(fields) != 3:
                    raise Malformed(f"{len(fields)} fields, want <time> <down|up> <hex bytes>")
                time, direction, text = fields
                if not time.isdigit():
                    raise Malformed(f"time {time!r} not a number of picoseconds")
                if direction not in ("down", "up"):
                    raise Malformed(f"direction {direction!r} not down or up")
                try:
                    packet = bytes.fromhex(text)
                except ValueError:
                    raise Malformed(f"bytes {text[:32]!r} not hex pairs") from None
                kind, desc = decode(packet)
            except Malformed as e:
                sys.exit(f"{args.trace}:{n}: {e}")
            counts[kind] += 1
            if not args.check:
                print(f"{time} {direction} {desc}")
    if args.check:
        for kind in sorted(counts):
            print(f"{kind} {counts[kind]}")
        print(f"total {sum(counts.values())}")


if __name__ == "__main__":
    main()
