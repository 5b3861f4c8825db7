/* http:// URLs (RFC 9110, 4.2.1) and the GET request made of one. */
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include <ember/net/http.h>

static char http_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool http_host_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '.';
}

/* A dotted quad of four decimal parts, each at most 255 and three digits. */
static bool http_dotted_quad(const char *s, uint32_t *out)
{
	uint32_t ip = 0;

	for (int part = 0; part < 4; part++) {
		unsigned v = 0, digits = 0;

		while (*s >= '0' && *s <= '9' && digits < 4) {
			v = v * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (!digits || digits > 3 || v > 255 || (part < 3 ? *s++ != '.' : *s != 0))
			return false;
		ip = ip << 8 | v;
	}
	*out = ip;
	return true;
}

static const char *http_url_port(const char *p, size_t n, uint16_t *port)
{
	uint32_t v = 0;

	if (!n || n > 5)
		return "bad port";
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return "bad port";
		v = v * 10 + (uint32_t)(p[i] - '0');
	}
	if (!v || v > 65535)
		return "port out of range";
	*port = (uint16_t)v;
	return NULL;
}

/* The authority (host[:port]) of n bytes at p. */
static const char *http_url_authority(const char *p, size_t n, struct http_url *out)
{
	size_t host_len = 0;

	while (host_len < n && p[host_len] != ':') {
		if (p[host_len] == '@')
			return "user information in the URL";
		if (p[host_len] == '[')
			return "IPv6 addresses are not supported";
		if (!http_host_char(p[host_len]))
			return "bad character in the host";
		host_len++;
	}
	if (!host_len || host_len > HTTP_HOST_MAX)
		return "host empty or too long";
	for (size_t i = 0; i < host_len; i++)
		out->host[i] = http_lower(p[i]);
	out->host[host_len] = 0;
	out->port = HTTP_PORT;
	if (host_len < n) {
		const char *why = http_url_port(p + host_len + 1, n - host_len - 1, &out->port);
		if (why)
			return why;
	}
	out->is_ip = http_dotted_quad(out->host, &out->ip);
	return NULL;
}

const char *http_url_parse(const char *url, struct http_url *out)
{
	static const char scheme[] = "http://";
	const char *p = url, *auth;
	size_t path_len = 0;
	const char *why;

	mem_set(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(scheme) - 1; i++)
		if (http_lower(p[i]) != scheme[i])
			return str8_ncmp(url, "https:", 6) ? "not an http:// URL"
							   : "HTTPS is not supported";
	auth = p += sizeof(scheme) - 1;
	while (*p && *p != '/' && *p != '?' && *p != '#')
		p++;
	why = http_url_authority(auth, (size_t)(p - auth), out);
	if (why)
		return why;
	if (*p != '/')
		out->path[path_len++] = '/';
	for (; *p && *p != '#'; p++) {
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			return "space or control character in the path";
		if (path_len >= HTTP_PATH_MAX)
			return "path too long";
		out->path[path_len++] = *p;
	}
	out->path[path_len] = 0;
	return NULL;
}

size_t http_request_build(char *buf, size_t cap, const struct http_url *u)
{
	char port[8] = "";
	size_t n;

	if (u->port != HTTP_PORT)
		format_sn(port, sizeof(port), ":%u", u->port);
	n = format_sn(buf, cap,
		      "GET %s HTTP/1.1\r\nHost: %s%s\r\nUser-Agent: Ember\r\nAccept: */*\r\n"
		      "Connection: close\r\n\r\n",
		      u->path, u->host, port);
	return n < cap ? n : 0;
}
