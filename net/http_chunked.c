/* The chunked transfer coding (RFC 9112, 7.1): hex sizes with extensions skipped, data,
 * CRLF after each chunk, the last chunk, trailer fields skipped. A state machine fed any
 * split of the bytes, so it never needs the whole body at once. */
#include <ember/net/http.h>

void http_chunked_init(struct http_chunked *c)
{
	*c = (struct http_chunked){.state = HTTP_CHUNK_SIZE};
}

bool http_chunked_done(const struct http_chunked *c)
{
	return c->state == HTTP_CHUNK_DONE;
}

static int http_hex(uint8_t b)
{
	if (b >= '0' && b <= '9')
		return b - '0';
	if (b >= 'a' && b <= 'f')
		return b - 'a' + 10;
	if (b >= 'A' && b <= 'F')
		return b - 'A' + 10;
	return -1;
}

/* The end of a size line: the next state after its LF. */
static const char *http_chunk_size_end(struct http_chunked *c)
{
	if (!c->digits)
		return "chunk size without digits";
	c->state = HTTP_CHUNK_SIZE_LF;
	return NULL;
}

static const char *http_chunk_size_byte(struct http_chunked *c, uint8_t b)
{
	int v = http_hex(b);

	if (v >= 0) {
		if (++c->digits > 15)
			return "chunk size too long";
		c->left = c->left << 4 | (uint64_t)v;
		if (c->total + c->left > HTTP_LENGTH_MAX)
			return "chunked body too large";
		return NULL;
	}
	if (b == '\r')
		return http_chunk_size_end(c);
	if (b == ';' || b == ' ' || b == '\t') {
		c->state = HTTP_CHUNK_EXT;
		return NULL;
	}
	return "bad character in a chunk size";
}

/* One byte of a control part (anything but chunk data). */
static const char *http_chunk_byte(struct http_chunked *c, uint8_t b)
{
	if (++c->line > HTTP_HEAD_MAX)
		return "chunk line too long";
	switch (c->state) {
	case HTTP_CHUNK_SIZE:
		return http_chunk_size_byte(c, b);
	case HTTP_CHUNK_EXT:
		if (b == '\r')
			return http_chunk_size_end(c);
		return (b < 0x20 && b != '\t') || b == 0x7f
			   ? "control character in a chunk extension"
			   : NULL;
	case HTTP_CHUNK_SIZE_LF:
		if (b != '\n')
			return "chunk size line not ended by CRLF";
		c->line = 0;
		c->state = c->left ? HTTP_CHUNK_DATA : HTTP_CHUNK_TRAILER;
		return NULL;
	case HTTP_CHUNK_DATA_CR:
		c->state = HTTP_CHUNK_DATA_LF;
		return b == '\r' ? NULL : "chunk data not followed by CRLF";
	case HTTP_CHUNK_DATA_LF:
		c->line = 0;
		c->digits = 0;
		c->state = HTTP_CHUNK_SIZE;
		return b == '\n' ? NULL : "chunk data not followed by CRLF";
	case HTTP_CHUNK_TRAILER:
		c->state = b == '\r' ? HTTP_CHUNK_END_LF : HTTP_CHUNK_TRAILER_LINE;
		return NULL;
	case HTTP_CHUNK_TRAILER_LINE:
		if (++c->trailer > HTTP_HEAD_MAX)
			return "trailer fields too long";
		if (b == '\r')
			c->state = HTTP_CHUNK_TRAILER_LF;
		return (b < 0x20 && b != '\t' && b != '\r') ? "control character in a trailer"
							    : NULL;
	case HTTP_CHUNK_TRAILER_LF:
		c->line = 0;
		c->state = HTTP_CHUNK_TRAILER;
		return b == '\n' ? NULL : "trailer line not ended by CRLF";
	case HTTP_CHUNK_END_LF:
		c->state = HTTP_CHUNK_DONE;
		return b == '\n' ? NULL : "last chunk not ended by CRLF";
	default:
		return "data after the last chunk";
	}
}

const char *http_chunked_step(struct http_chunked *c, const uint8_t *in, size_t len, size_t *used,
			      size_t *data)
{
	*used = 0;
	*data = 0;
	if (c->state == HTTP_CHUNK_DATA) {
		size_t n = c->left < len ? (size_t)c->left : len;
		c->left -= n;
		c->total += n;
		if (!c->left)
			c->state = HTTP_CHUNK_DATA_CR;
		*used = *data = n;
		return NULL;
	}
	while (*used < len && c->state != HTTP_CHUNK_DATA) {
		const char *why = http_chunk_byte(c, in[*used]);
		if (why)
			return why;
		++*used;
		if (c->state == HTTP_CHUNK_DONE)
			break;
	}
	return NULL;
}
