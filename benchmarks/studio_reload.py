#!/usr/bin/env python3
"""How long after a save the studio's page has the new current frame (issue 19: within 0.5 s for the bundled example).

Starts `shiftrender studio` on a copy of the example (its images beside it, as in fixtures/), asks for frame 14 as
a page showing it would (which also starts the prefetch of its neighbours), then saves the scene N times with a new
list-screen colour and times, per save, what the page does on its `reload` event: the event itself, GET
/info.json, then GET /frame/14.png of the new version. Prints each save's three times and the median and worst
of the last one. The file is rewritten in place, as an editor that does not rename does.

    swift build -c release --product shiftrender
    python3 benchmarks/studio_reload.py --bin .build/release/shiftrender [--saves 10] [--frame 14]

Standard library only.
"""
import argparse, http.client, os, re, shutil, socket, statistics, subprocess, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXAMPLE = os.path.join(ROOT, "fixtures/scenes/example-card.json")
COLOURS = ["#FF3B30", "#34C759", "#007AFF", "#FF9500", "#AF52DE", "#5AC8FA", "#FFCC00", "#8E8E93"]


def copy_example(folder):
    os.makedirs(os.path.join(folder, "scenes"))
    shutil.copytree(os.path.join(ROOT, "fixtures/images"), os.path.join(folder, "images"))
    scene = os.path.join(folder, "scenes", "card.json")
    shutil.copy(EXAMPLE, scene)
    return scene


def start_studio(binary, scene):
    process = subprocess.Popen([binary, "studio", scene, "--port", "0"], stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        process.kill()
        raise SystemExit(f"the studio printed no URL: {line!r}")
    return process, int(match.group(1))


class EventStream:
    """A raw /events connection: `next_reload()` blocks until the next `reload` event and returns its version."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.buffer = b""

    def next_reload(self):
        while True:
            match = re.search(rb'event: reload\r?\ndata: \{[^}]*"version":(\d+)', self.buffer)
            if match:
                self.buffer = self.buffer[match.end():]
                return int(match.group(1))
            chunk = self.sock.recv(65536)
            if not chunk:
                raise SystemExit("the event stream ended")
            self.buffer += chunk


def get(port, path):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 200:
        raise SystemExit(f"GET {path}: {response.status} {body[:200]!r}")
    return body


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", required=True, help="the shiftrender binary (a release build)")
    parser.add_argument("--saves", type=int, default=10)
    parser.add_argument("--frame", type=int, default=14)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="studio-reload-")
    scene = copy_example(folder)
    original = open(scene).read()
    process, port = start_studio(args.bin, scene)
    try:
        events = EventStream(port)
        version = events.next_reload()
        get(port, f"/frame/{args.frame}.png?v={version}")
        time.sleep(1)  # the neighbours' prefetch settles, as on a page left on one frame
        in_hand = []
        for save in range(args.saves):
            edited = original.replace('"#F2F2F7"', f'"{COLOURS[save % len(COLOURS)]}"', 1)
            saved = time.monotonic()
            with open(scene, "w") as handle:
                handle.write(edited)
            version = events.next_reload()
            reloaded = time.monotonic()
            get(port, "/info.json")
            informed = time.monotonic()
            get(port, f"/frame/{args.frame}.png?v={version}")
            done = time.monotonic()
            in_hand.append(done - saved)
            print(f"save {save + 1}: reload event {1000 * (reloaded - saved):.0f} ms, info {1000 * (informed - saved):.0f} ms, "
                  f"frame {args.frame} in hand {1000 * (done - saved):.0f} ms")
            time.sleep(1)
        print(f"frame {args.frame} in hand after a save: median {1000 * statistics.median(in_hand):.0f} ms, "
              f"worst {1000 * max(in_hand):.0f} ms over {len(in_hand)} saves")
    finally:
        process.terminate()
        process.wait()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
