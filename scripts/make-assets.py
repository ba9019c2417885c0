#!/usr/bin/env python3
"""Draw the project's own pictures in assets/ (the default token faces), with the standard
library only (zlib and struct write the PNGs). Usage: python3 scripts/make-assets.py

The faces are white with a grey silhouette: the GM view tints them with the side's (or the
beast's) colour and clips them to the token's round base (src/view/pictures.rs), so they stay
white and greys. Run again after changing a shape; the output is the same byte for byte.
"""

import os
import struct
import zlib

SIZE = 128
# Samples per pixel along each axis, for soft edges.
SUPER = 4
WHITE = 255
# The silhouette's grey: dark enough to read once tinted, light enough that the side's colour
# still fills the token.
MARK = 190


def png(path, width, height, rgba):
    """Write `rgba` (bytes, rows from the top) as an 8-bit RGBA PNG."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + rgba[y * width * 4:(y + 1) * width * 4] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


def ellipse(x, y, cx, cy, rx, ry):
    return ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1.0


def rect(x, y, x0, y0, x1, y1):
    return x0 <= x <= x1 and y0 <= y <= y1


def figure(x, y):
    """A head and shoulders, as on a portrait token (x right, y up, the disc of radius 1)."""
    head = ellipse(x, y, 0.0, 0.30, 0.24, 0.27)
    neck = rect(x, y, -0.10, -0.05, 0.10, 0.10)
    shoulders = ellipse(x, y, 0.0, -0.62, 0.62, 0.52)
    return head or neck or shoulders


def beast(x, y):
    """A four-legged beast from the side, head to the right."""
    body = ellipse(x, y, -0.05, 0.0, 0.46, 0.24)
    neck = ellipse(x, y, 0.38, 0.14, 0.14, 0.17)
    head = ellipse(x, y, 0.56, 0.24, 0.17, 0.11)
    ear = ellipse(x, y, 0.48, 0.38, 0.05, 0.08)
    legs = any(rect(x, y, lx - 0.045, -0.52, lx + 0.045, -0.05) for lx in (-0.38, -0.24, 0.16, 0.30))
    tail = rect(x, y, -0.58, -0.20, -0.50, 0.10)
    return body or neck or head or ear or legs or tail


def face(shape):
    out = bytearray()
    for py in range(SIZE):
        for px in range(SIZE):
            inside = 0
            for sy in range(SUPER):
                for sx in range(SUPER):
                    x = (px + (sx + 0.5) / SUPER) / SIZE * 2.0 - 1.0
                    y = 1.0 - (py + (sy + 0.5) / SUPER) / SIZE * 2.0
                    inside += shape(x, y)
            share = inside / (SUPER * SUPER)
            grey = round(WHITE + (MARK - WHITE) * share)
            out += bytes((grey, grey, grey, 255))
    return bytes(out)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "assets", "tokens")
    for name, shape in (("default-figure.png", figure), ("default-beast.png", beast)):
        path = os.path.normpath(os.path.join(root, name))
        png(path, SIZE, SIZE, face(shape))
        print(path)


if __name__ == "__main__":
    main()
