#!/usr/bin/env python3
"""Opens a page in headless Chromium, waits until its #status starts with "frames" (the web
demo's self-check) or "error", prints that line and saves a screenshot. Chromium is driven over
its DevTools protocol (a WebSocket), with the standard library only: --dump-dom and --screenshot
act at the load event, before the page's frames have run.
    web/check_page.py URL SCREENSHOT.png [TIMEOUT_SECONDS] [--keys KEYS --keys-shot AFTER.png]
--keys then presses KEYS one by one (Input.dispatchKeyEvent, a quarter second apart, so frames
run between them), where '!' is no key but prints "verify N" (the page's web_verify(): its
distances now against the oracle's on the edited map), '~' waits a second and '^' turns the
mouse wheel up once over the map (zoom in); then it prints
"state ..." (the page's #state: what the keys changed) and saves the second screenshot.
Exit 0 when the status line was read (the caller judges it), 1 otherwise."""
import argparse, base64, json, os, shutil, socket, struct, subprocess, sys, tempfile, time, urllib.request

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,800", "--remote-debugging-port=0"]


class Socket:
    """The client side of a WebSocket (RFC 6455), text frames only: enough for DevTools."""

    def __init__(self, url):
        host, _, path = url[len("ws://"):].partition("/")
        name, _, port = host.partition(":")
        self.s = socket.create_connection((name, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.s.sendall((f"GET /{path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
                        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                        "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        reply = b""
        while b"\r\n\r\n" not in reply:
            reply += self.s.recv(1)
        if b" 101 " not in reply.split(b"\r\n")[0]:
            raise RuntimeError("no WebSocket: " + reply.decode(errors="replace"))
        self.next_id = 0

    def read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.s.recv(n - len(data))
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            data += chunk
        return data

    def send(self, method, **params):
        self.next_id += 1
        payload = json.dumps({"id": self.next_id, "method": method, "params": params}).encode()
        mask = os.urandom(4)
        n = len(payload)
        head = struct.pack("!BB", 0x81, 0x80 | n) if n < 126 else struct.pack("!BBH", 0x81, 0xFE, n)
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
        while True:  # events come between the answers: skip them
            message = b""
            while True:
                b0, b1 = self.read(2)
                n = b1 & 0x7F
                if n == 126:
                    n = struct.unpack("!H", self.read(2))[0]
                elif n == 127:
                    n = struct.unpack("!Q", self.read(8))[0]
                message += self.read(n)
                if b0 & 0x80:
                    break
            reply = json.loads(message)
            if reply.get("id") == self.next_id:
                return reply.get("result", {})


def evaluate(ws, expression):
    return ws.send("Runtime.evaluate", expression=expression).get("result", {}).get("value", "")


def press(ws, keys):
    """Presses each key of `keys` ('!' verifies, '~' waits, '^' zooms in), then prints #state."""
    for key in keys:
        if key == "!":
            print("verify", evaluate(ws, "Module._web_verify()"))
        elif key == "~":
            time.sleep(1)
        elif key == "^":
            ws.send("Input.dispatchMouseEvent", type="mouseWheel", x=400, y=320, deltaX=0, deltaY=-120)
            time.sleep(0.25)
        else:
            for kind in ("keyDown", "keyUp"):
                ws.send("Input.dispatchKeyEvent", type=kind, key=key, text=key if kind == "keyDown" else "")
            time.sleep(0.25)
    time.sleep(0.5)
    print("state", evaluate(ws, "document.getElementById('state').textContent"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("url")
    parser.add_argument("shot")
    parser.add_argument("timeout", type=float, nargs="?", default=90)
    parser.add_argument("--keys", default="")
    parser.add_argument("--keys-shot")
    args = parser.parse_args()
    url, shot, timeout = args.url, args.shot, args.timeout
    profile = tempfile.mkdtemp(prefix="gridtree-chromium-")
    browser = subprocess.Popen(["chromium", *FLAGS, f"--user-data-dir={profile}", url],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file, deadline = os.path.join(profile, "DevToolsActivePort"), time.time() + timeout
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or browser.poll() is not None:
                print("check_page: chromium did not start", file=sys.stderr)
                return 1
            time.sleep(0.2)
        port = open(port_file).read().split()[0]
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
        ws = Socket(next(p for p in pages if p.get("type") == "page")["webSocketDebuggerUrl"])
        status = ""
        while time.time() < deadline:
            result = ws.send("Runtime.evaluate", expression="document.getElementById('status').textContent")
            status = str(result.get("result", {}).get("value", ""))
            if status.startswith("frames") or status.startswith("error"):
                break
            time.sleep(0.5)
        with open(shot, "wb") as f:
            f.write(base64.b64decode(ws.send("Page.captureScreenshot", format="png")["data"]))
        print(status)
        if args.keys and status.startswith("frames"):
            press(ws, args.keys)
            if args.keys_shot:
                with open(args.keys_shot, "wb") as f:
                    f.write(base64.b64decode(ws.send("Page.captureScreenshot", format="png")["data"]))
        log = ws.send("Runtime.evaluate", expression="document.getElementById('log').textContent")
        print(str(log.get("result", {}).get("value", "")), file=sys.stderr)  # the page's last line
        return 0 if status.startswith("frames") else 1
    finally:
        browser.terminate()
        try:
            browser.wait(10)
        except subprocess.TimeoutExpired:
            browser.kill()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
