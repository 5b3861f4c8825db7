/* An HTTP/1.1 response's header block (RFC 9112, 4 and 5): the status line, then fields
 * read one line at a time, strictly. Only the fields the client acts on are kept. */
#include <ember/lib/str.h>
#include <ember/net/http.h>

size_t http_head_length(const char *p, size_t len)
{
	size_t n = len < HTTP_HEAD_MAX ? len : HTTP_HEAD_MAX;

	for (size_t i = 3; i < n; i++)
		if (p[i] == '\n' && p[i - 1] == '\r' && p[i - 2] == '\n' && p[i - 3] == '\r')
			return i + 1;
	return 0;
}

static char http_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* RFC 9110's tchar: what a field name is made of. */
static bool http_tchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       (c && str8_chr("!#$%&'*+-.^_`|~", c));
}

static bool http_name_is(const char *name, size_t n, const char *want)
{
	size_t i = 0;

	for (; i < n && want[i]; i++)
		if (http_lower(name[i]) != want[i])
			return false;
	return i == n && !want[i];
}

/* "HTTP/1.x NNN reason" of n bytes (without its CRLF). */
static const char *http_status_line(const char *p, size_t n, struct http_response *out)
{
	if (n < 12 || mem_cmp(p, "HTTP/1.", 7) || p[7] < '0' || p[7] > '9' || p[8] != ' ')
		return "not an HTTP/1.x status line";
	out->status = 0;
	for (int i = 9; i < 12; i++) {
		if (p[i] < '0' || p[i] > '9')
			return "status code not three digits";
		out->status = out->status * 10 + (unsigned)(p[i] - '0');
	}
	if (out->status < 100 || out->status > 599)
		return "status code out of range";
	if (n > 12 && p[12] != ' ')
		return "status code not three digits";
	for (size_t i = 13; i < n; i++)
		if ((unsigned char)p[i] < 0x20 && p[i] != '\t')
			return "control character in the reason";
	return NULL;
}

static const char *http_content_length(const char *v, size_t n, struct http_response *out)
{
	uint64_t len = 0;

	if (out->has_length)
		return "Content-Length repeated";
	if (!n)
		return "Content-Length empty";
	for (size_t i = 0; i < n; i++) {
		if (v[i] < '0' || v[i] > '9')
			return "Content-Length not a number";
		len = len * 10 + (uint64_t)(v[i] - '0');
		if (len > HTTP_LENGTH_MAX)
			return "Content-Length too large";
	}
	out->has_length = true;
	out->content_length = len;
	return NULL;
}

/* Copies the n bytes at v to to (cap bytes), lower-cased when asked; false if too long. */
static bool http_copy(char *to, size_t cap, const char *v, size_t n, bool lower)
{
	if (n >= cap)
		return false;
	for (size_t i = 0; i < n; i++)
		to[i] = lower ? http_lower(v[i]) : v[i];
	to[n] = 0;
	return true;
}

/* A field the client acts on; others are ignored. */
static const char *http_field(const char *name, size_t nlen, const char *v, size_t vlen,
			      struct http_response *out)
{
	if (http_name_is(name, nlen, "content-length"))
		return http_content_length(v, vlen, out);
	if (http_name_is(name, nlen, "transfer-encoding")) {
		if (out->chunked || !http_name_is(v, vlen, "chunked"))
			return "transfer coding other than chunked";
		out->chunked = true;
	} else if (http_name_is(name, nlen, "content-type")) {
		size_t type_len = 0;
		while (type_len < vlen && v[type_len] != ';' && v[type_len] != ' ')
			type_len++;
		if (!http_copy(out->content_type, sizeof(out->content_type), v, type_len, true))
			return "Content-Type too long";
	} else if (http_name_is(name, nlen, "location")) {
		if (!http_copy(out->location, sizeof(out->location), v, vlen, false))
			return "Location too long";
	}
	return NULL;
}

/* One field line of n bytes (without its CRLF): name ":" OWS value OWS. */
static const char *http_field_line(const char *p, size_t n, struct http_response *out)
{
	size_t colon = 0, start, end;

	if (p[0] == ' ' || p[0] == '\t')
		return "folded header line";
	while (colon < n && http_tchar(p[colon]))
		colon++;
	if (!colon || colon == n || p[colon] != ':')
		return "bad header field name";
	for (size_t i = colon + 1; i < n; i++)
		if (((unsigned char)p[i] < 0x20 && p[i] != '\t') || p[i] == 0x7f)
			return "control character in a header value";
	start = colon + 1;
	end = n;
	while (start < end && (p[start] == ' ' || p[start] == '\t'))
		start++;
	while (end > start && (p[end - 1] == ' ' || p[end - 1] == '\t'))
		end--;
	return http_field(p, colon, p + start, end - start, out);
}

const char *http_response_parse(const char *p, size_t len, struct http_response *out)
{
	size_t at = 0, fields = 0;
	const char *why = NULL;

	mem_set(out, 0, sizeof(*out));
	if (len < 4 || len > HTTP_HEAD_MAX || mem_cmp(p + len - 4, "\r\n\r\n", 4))
		return "header block not ended by a blank line";
	while (!why) {
		size_t eol = at;
		while (eol < len && p[eol] != '\r' && p[eol] != '\n')
			eol++;
		if (eol + 1 >= len || p[eol] != '\r' || p[eol + 1] != '\n')
			return "header line not ended by CRLF";
		if (eol == at)
			break; /* the blank line */
		if (!at)
			why = http_status_line(p, eol, out);
		else if (++fields > HTTP_HEADERS_MAX)
			why = "too many header fields";
		else
			why = http_field_line(p + at, eol - at, out);
		at = eol + 2;
	}
	if (!why && at + 2 != len)
		why = "data after the blank line";
	if (!why && out->chunked && out->has_length)
		why = "both Content-Length and Transfer-Encoding";
	return why;
}
