#!/usr/bin/env python3
"""Compares two runs of raw RGBA8 frames (same size, same frames, back to
back) and prints one JSON object: PSNR over RGB per frame (mean, worst, and
pooled over all frames), the largest channel difference, the share of pixels
that differ by more than a threshold, and how many of those lie on shape
edges (an edge mask written by skia_render.py --edges: pixels within 1.5 px
of an item's or clip's outline).

    fidelity.py WIDTH HEIGHT OURS.rgba THEIRS.rgba [--edges MASK] [--threshold 8]
"""
import argparse, json, math, os, sys

import numpy as np


def compare(width, height, a_path, b_path, edges_path=None, threshold=8):
    frame_bytes = width * height * 4
    count = min(os.path.getsize(a_path), os.path.getsize(b_path)) // frame_bytes
    a = np.memmap(a_path, dtype=np.uint8, mode="r", shape=(count, height, width, 4))
    b = np.memmap(b_path, dtype=np.uint8, mode="r", shape=(count, height, width, 4))
    edges = None
    if edges_path and os.path.exists(edges_path):
        edges = np.memmap(edges_path, dtype=np.uint8, mode="r")
        edges = edges[:count * width * height].reshape(-1, height, width) if edges.size >= count * width * height else None
    psnrs, total_se, max_diff, differing, on_edges = [], 0.0, 0, 0, 0
    for i in range(count):
        d = np.abs(a[i, :, :, :3].astype(np.int16) - b[i, :, :, :3].astype(np.int16))
        se = float(np.square(d, dtype=np.int32).sum(dtype=np.int64))
        total_se += se
        mse = se / (width * height * 3)
        psnrs.append(math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse))
        worst = d.max(axis=2)
        max_diff = max(max_diff, int(worst.max()))
        big = worst > threshold
        differing += int(big.sum())
        if edges is not None:
            on_edges += int((big & (edges[i] > 0)).sum())
    pooled_mse = total_se / (count * width * height * 3) if count else 0
    finite = [p for p in psnrs if math.isfinite(p)]
    worst_frame = int(np.argmin(psnrs)) if psnrs else None
    result = {
        "frames": count,
        "psnr_mean_db": round(sum(finite) / len(finite), 2) if finite else None,
        "psnr_min_db": round(min(psnrs), 2) if psnrs and math.isfinite(min(psnrs)) else None,
        "psnr_min_frame": worst_frame,
        "psnr_pooled_db": round(10 * math.log10(255 ** 2 / pooled_mse), 2) if pooled_mse > 0 else None,
        "max_channel_difference": max_diff,
        "threshold": threshold,
        "differing_pixels_pct": round(100.0 * differing / max(1, count * width * height), 3),
    }
    if edges is not None:
        result["differing_on_edges_pct"] = round(100.0 * on_edges / differing, 1) if differing else 100.0
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("width", type=int)
    parser.add_argument("height", type=int)
    parser.add_argument("ours")
    parser.add_argument("theirs")
    parser.add_argument("--edges")
    parser.add_argument("--threshold", type=int, default=8)
    args = parser.parse_args()
    print(json.dumps(compare(args.width, args.height, args.ours, args.theirs, args.edges, args.threshold)))


if __name__ == "__main__":
    sys.exit(main())
