#!/usr/bin/env python3
"""Measures the leaving content's weight in a rendered cross-fade against (1 - q)^2 and 1 - q.

Usage: shiftrender benchmarks/fidelity/crossfade-scene.json -o /tmp/xf/ -y && benchmarks/fidelity/crossfade_fit.py /tmp/xf
The scene: a matched 40x40 view whose red content (leaving) cross-fades into a blue one over white, 1 s at 60 fps.
q is computed here, independently of shiftrender, from Shift's curve cubic-bezier(0.4, 0, 0.2, 1)."""
import subprocess, sys, glob
def bez(t, p1, p2):  # one coordinate of cubic-bezier with P0=0, P3=1
    return 3*(1-t)**2*t*p1 + 3*(1-t)*t*t*p2 + t**3
def curve(x):  # Shift's cubic-bezier(0.4, 0.0, 0.2, 1.0): solve x(t)=x by bisection, return y(t)
    lo, hi = 0.0, 1.0
    for _ in range(80):
        mid = (lo+hi)/2
        if bez(mid, 0.4, 0.2) < x: lo = mid
        else: hi = mid
    return bez((lo+hi)/2, 0.0, 1.0)
frames = sorted(glob.glob(sys.argv[1] + '/*.png')); n = len(frames)
rows = []
for i, f in enumerate(frames):
    raw = subprocess.run(['ffmpeg','-loglevel','error','-i',f,'-f','rawvideo','-pix_fmt','rgb24','-'], capture_output=True).stdout
    r, g, b = raw[3*(20*40+20):3*(20*40+20)+3]
    q = curve(i / (n - 1))
    w = 1 - b / 255          # the leaving (red) content's weight: blue = 255 (1 - w)
    rows.append((q, w))
sq = [abs(w - (1-q)**2) for q, w in rows]; lin = [abs(w - (1-q)) for q, w in rows]
print(f"frames {n}; |w - (1-q)^2|: max {max(sq):.4f}, mean {sum(sq)/n:.4f}; |w - (1-q)|: max {max(lin):.4f}, mean {sum(lin)/n:.4f}")
for qq in (0.25, 0.5, 0.55, 0.75):
    q, w = min(rows, key=lambda r: abs(r[0]-qq))
    print(f"q={q:.3f}: w={w:.4f}  (1-q)^2={(1-q)**2:.4f}  1-q={1-q:.4f}")
