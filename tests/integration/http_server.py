"""A small HTTP/1.1 server on 127.0.0.1 for the network boot tests (10.0.2.2 from a guest of
QEMU's or ember-run's user network): serves files of a directory with Content-Length, or
chunked under /chunked/ (HEAD too, without the body), redirects /redirect/NAME to /NAME, and types .efi as
application/efi and .iso as application/vnd.efi-iso, as UEFI HTTP boot servers do."""
import http.server
import os
import threading

TYPES = {".efi": "application/efi", ".iso": "application/vnd.efi-iso"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = "."

    def log_message(self, *args):
        pass

    def do_HEAD(self):  # OVMF's HTTP boot asks the size first
        self.do_GET(head=True)

    def do_GET(self, head=False):
        path = self.path.split("?", 1)[0]  # a query names the same file
        if path.startswith("/redirect/"):
            self.send_response(302)
            self.send_header("Location", path[len("/redirect"):])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        chunked = path.startswith("/chunked/")
        if chunked:
            path = path[len("/chunked"):]
        name = os.path.normpath(path.lstrip("/"))
        full = os.path.join(self.root, name)
        if name.startswith("..") or not os.path.isfile(full):
            self.send_error(404)
            return
        data = open(full, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type",
                         TYPES.get(os.path.splitext(name)[1], "application/octet-stream"))
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        if head:
            return
        if not chunked:
            self.wfile.write(data)
            return
        for at in range(0, len(data), 7000):
            piece = data[at:at + 7000]
            self.wfile.write(b"%x;n=1\r\n" % len(piece) + piece + b"\r\n")
        self.wfile.write(b"0\r\nX-Trailer: 1\r\n\r\n")


class Server:
    """Serves root on 127.0.0.1 (a free port) in a thread until stop()."""

    def __init__(self, root):
        handler = type("RootHandler", (Handler,), {"root": str(root)})
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path):
        return f"http://10.0.2.2:{self.port}/{path}"

    def stop(self):
        self.httpd.shutdown()
        self.httpd.server_close()
