/* Fuzzes the HTTP client's parsers (net/http_*.c): the input's first line is a URL, the
 * rest a response whose header block is parsed, and whose body is decoded as chunked in
 * pieces whose sizes the input's bytes choose. Data handed out must lie inside the input. */
#include "fuzz.h"
#include <stdlib.h>
#include <string.h>

#include <ember/net/http.h>

static void url(const uint8_t *data, size_t size)
{
	static char text[HTTP_URL_MAX + 1];
	static char req[HTTP_REQUEST_MAX];
	struct http_url u;
	size_t n = size < HTTP_URL_MAX ? size : HTTP_URL_MAX;

	memcpy(text, data, n);
	text[n] = 0;
	if (!http_url_parse(text, &u)) {
		if (!u.host[0] || u.path[0] != '/' || !u.port)
			abort();
		http_request_build(req, sizeof(req), &u);
	}
}

static void chunked(const uint8_t *p, size_t len)
{
	struct http_chunked c;
	size_t at = 0, piece = 1;

	http_chunked_init(&c);
	while (at < len && !http_chunked_done(&c)) {
		size_t n = len - at < piece ? len - at : piece, used, data;
		if (http_chunked_step(&c, p + at, n, &used, &data))
			return;
		if (used > n || data > used || (!used && !http_chunked_done(&c)))
			abort();
		at += used;
		piece = (size_t)p[at - (used ? 1 : 0)] % 64 + 1;
	}
	if (c.total > HTTP_LENGTH_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size);
	size_t url_len = nl ? (size_t)(nl - data) : size, head;
	const uint8_t *rest = data + url_len + (nl ? 1 : 0);
	size_t rest_len = size - (size_t)(rest - data);
	struct http_response r;

	url(data, url_len);
	head = http_head_length((const char *)rest, rest_len);
	if (head) {
		if (head > rest_len || head > HTTP_HEAD_MAX)
			abort();
		if (!http_response_parse((const char *)rest, head, &r) &&
		    (r.status < 100 || r.status > 599 || (r.chunked && r.has_length)))
			abort();
	}
	chunked(rest + head, rest_len - head);
	return 0;
}
