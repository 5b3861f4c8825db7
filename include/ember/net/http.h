/* The HTTP/1.1 client's text (RFC 9110, 9112): URLs (net/http_url.c), the GET request and
 * the response's header block (net/http_response.c), and chunked bodies
 * (net/http_chunked.c). Pure and bounded: every limit below is a refusal, not a truncation. */
#ifndef EMBER_NET_HTTP_H
#define EMBER_NET_HTTP_H

#include <ember/net/net.h>

#define HTTP_PORT 80
#define HTTP_HOST_MAX 253
#define HTTP_PATH_MAX 1024
#define HTTP_URL_MAX 1100
#define HTTP_HEAD_MAX 8192  /* the status line and the headers, blank line included */
#define HTTP_HEADERS_MAX 64 /* header fields in one response */
#define HTTP_TYPE_MAX 128   /* a Content-Type's media type */
#define HTTP_REQUEST_MAX 1536
#define HTTP_LENGTH_MAX (1ull << 40) /* a Content-Length or a chunk size above is refused */

/* http://host[:port][/path], the fragment dropped. */
struct http_url {
	char host[HTTP_HOST_MAX + 1];
	uint16_t port;
	char path[HTTP_PATH_MAX + 1]; /* "/" when the URL has none */
	bool is_ip;		      /* host is a dotted quad: ip holds it */
	uint32_t ip;
};

/* Reads url; returns why it is refused, NULL when accepted. Refuses: a scheme other than
 * http (https among them), user information, an IPv6 literal, a host that is empty, too long
 * or has characters other than letters, digits, '-' and '.', a port of 0, above 65535 or not
 * digits, and a path too long or with spaces or control characters. */
const char *http_url_parse(const char *url, struct http_url *out);

/* Writes the GET request for u (HTTP/1.1, Host, Connection: close) at buf; returns its length,
 * or 0 when it does not fit cap. */
size_t http_request_build(char *buf, size_t cap, const struct http_url *u);

/* The length of the header block at p (through the blank line) once it is all there, 0 while
 * it is not (len below HTTP_HEAD_MAX). */
size_t http_head_length(const char *p, size_t len);

struct http_response {
	unsigned status; /* 100 to 599 */
	bool has_length; /* Content-Length was given */
	uint64_t content_length;
	bool chunked;			  /* Transfer-Encoding: chunked */
	char content_type[HTTP_TYPE_MAX]; /* the media type, lower case, "" when absent */
	char location[HTTP_URL_MAX + 1];  /* Location, "" when absent */
};

/* Reads a response's header block of len bytes (as http_head_length measured it). Refuses: a
 * status line that is not "HTTP/1.x NNN reason", a status outside 100..599, more than
 * HTTP_HEADERS_MAX fields, a field without a colon, with whitespace before it, folded over
 * lines (obs-fold) or with control characters, Content-Length that is not all digits, is
 * above HTTP_LENGTH_MAX or is repeated, a transfer coding other than chunked, both
 * Content-Length and Transfer-Encoding, and a Content-Type or Location that does not fit. */
const char *http_response_parse(const char *p, size_t len, struct http_response *out);

enum http_chunked_state {
	HTTP_CHUNK_SIZE,
	HTTP_CHUNK_EXT,
	HTTP_CHUNK_SIZE_LF,
	HTTP_CHUNK_DATA,
	HTTP_CHUNK_DATA_CR,
	HTTP_CHUNK_DATA_LF,
	HTTP_CHUNK_TRAILER,
	HTTP_CHUNK_TRAILER_LINE,
	HTTP_CHUNK_TRAILER_LF,
	HTTP_CHUNK_END_LF,
	HTTP_CHUNK_DONE,
};

/* The decoder of a chunked body (RFC 9112, 7.1). */
struct http_chunked {
	enum http_chunked_state state;
	uint64_t left;	 /* of the current chunk's data */
	unsigned digits; /* of the chunk size read */
	size_t line;	 /* bytes of the current size or trailer line */
	size_t trailer;	 /* bytes of trailer fields */
	uint64_t total;	 /* data bytes so far */
};

void http_chunked_init(struct http_chunked *c);
/* Decodes from the len bytes at in: sets *used to the bytes taken and *data to how many of
 * them (at in, when not 0) are body data. Returns why the body is refused, else NULL; call
 * again with the rest until done. Refuses a size without hex digits or with more than 15, a
 * total above HTTP_LENGTH_MAX, lines not ended by CRLF, control characters in extensions,
 * and lines or trailers longer than HTTP_HEAD_MAX. */
const char *http_chunked_step(struct http_chunked *c, const uint8_t *in, size_t len, size_t *used,
			      size_t *data);
/* The last chunk and the trailers have been read. */
bool http_chunked_done(const struct http_chunked *c);

#endif
