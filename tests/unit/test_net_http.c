/* The HTTP client's text (net/http_url.c, net/http_response.c, net/http_chunked.c): URLs
 * and what they refuse, the request, header blocks strict and bounded, chunked bodies fed
 * in any split. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/net/http.h>

TEST(net_http_url_parse)
{
	struct http_url u;

	ASSERT(http_url_parse("http://10.0.2.2:8080/boot/x.efi#frag", &u) == NULL);
	EXPECT(u.is_ip);
	EXPECT_EQ(u.ip, 0x0a000202u);
	EXPECT_EQ(u.port, 8080);
	EXPECT(!strcmp(u.path, "/boot/x.efi"));
	ASSERT(http_url_parse("HTTP://Boot.Example", &u) == NULL);
	EXPECT(!u.is_ip);
	EXPECT(!strcmp(u.host, "boot.example"));
	EXPECT(!strcmp(u.path, "/"));
	EXPECT_EQ(u.port, 80);
	ASSERT(http_url_parse("http://h?q=1", &u) == NULL);
	EXPECT(!strcmp(u.path, "/?q=1"));
	EXPECT(http_url_parse("http://1.2.3.256/", &u) == NULL && !u.is_ip);
}

TEST(net_http_url_refusals)
{
	static const char *bad[] = {
	    "https://h/",    "ftp://h/",      "http://",	 "http:///x",	     "http://u@h/",
	    "http://[::1]/", "http://h:0/",   "http://h:65536/", "http://h:8a/",     "http://h:/",
	    "http://h/a b",  "http://h/\x01", "http://h_x/",	 "http://h:123456/",
	};
	char long_path[HTTP_PATH_MAX + 20] = "http://h/";
	struct http_url u;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(http_url_parse(bad[i], &u) != NULL);
	memset(long_path + 9, 'a', HTTP_PATH_MAX);
	long_path[9 + HTTP_PATH_MAX] = 0;
	EXPECT(http_url_parse(long_path, &u) != NULL);
	EXPECT(strstr(http_url_parse("https://h/", &u), "HTTPS"));
}

TEST(net_http_request)
{
	struct http_url u;
	char buf[HTTP_REQUEST_MAX];

	ASSERT(http_url_parse("http://10.0.2.2:8080/a.efi", &u) == NULL);
	ASSERT(http_request_build(buf, sizeof(buf), &u) > 0);
	EXPECT(!strcmp(buf, "GET /a.efi HTTP/1.1\r\nHost: 10.0.2.2:8080\r\nUser-Agent: Ember\r\n"
			    "Accept: */*\r\nConnection: close\r\n\r\n"));
	EXPECT_EQ(http_request_build(buf, 40, &u), 0u);
}

static const char *parse(const char *head, struct http_response *r)
{
	size_t n = http_head_length(head, strlen(head));

	return n ? http_response_parse(head, n, r) : "incomplete";
}

TEST(net_http_response_fields)
{
	struct http_response r;

	ASSERT(parse("HTTP/1.1 200 OK\r\nContent-Length: 1234\r\nContent-Type: "
		     "Application/EFI; charset=x\r\nX-Other:  v \r\n\r\nBODY",
		     &r) == NULL);
	EXPECT_EQ(r.status, 200u);
	EXPECT(r.has_length);
	EXPECT_EQ(r.content_length, 1234u);
	EXPECT(!strcmp(r.content_type, "application/efi"));
	ASSERT(parse("HTTP/1.0 302 \r\nLocation: http://h/x\r\nTransfer-Encoding: chunked\r\n\r\n",
		     &r) == NULL);
	EXPECT_EQ(r.status, 302u);
	EXPECT(r.chunked);
	EXPECT(!strcmp(r.location, "http://h/x"));
	EXPECT_EQ(http_head_length("HTTP/1.1 200 OK\r\n", 17), 0u);
}

TEST(net_http_response_refusals)
{
	static const char *bad[] = {
	    "HTTP/2 200 OK\r\n\r\n",
	    "HTTP/1.1 99 OK\r\n\r\n",
	    "HTTP/1.1 600 OK\r\n\r\n",
	    "HTTP/1.1 2000 OK\r\n\r\n",
	    "HTTP/1.1 200 OK\nX: y\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nX : y\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nX: y\r\n folded\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nNoColon\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nX: a\x01b\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nContent-Length: 99999999999999999999\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nContent-Length: \r\n\r\n",
	    "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
	    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
	};
	static char many[HTTP_HEAD_MAX];
	struct http_response r;
	size_t n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(parse(bad[i], &r) != NULL);
	n = (size_t)sprintf(many, "HTTP/1.1 200 OK\r\n");
	for (int i = 0; i <= HTTP_HEADERS_MAX; i++)
		n += (size_t)sprintf(many + n, "X%d: y\r\n", i);
	strcpy(many + n, "\r\n");
	EXPECT(strstr(parse(many, &r), "too many"));
	memset(many, 'a', sizeof(many));
	EXPECT_EQ(http_head_length(many, sizeof(many)), 0u);
}

/* Decodes body fed in pieces of step bytes; returns the error or NULL, data in out. */
static const char *dechunk(const char *body, size_t step, char *out, size_t *out_len)
{
	struct http_chunked c;
	size_t len = strlen(body), at = 0;

	*out_len = 0;
	http_chunked_init(&c);
	while (at < len && !http_chunked_done(&c)) {
		size_t piece = len - at < step ? len - at : step, used, data;
		const char *why =
		    http_chunked_step(&c, (const uint8_t *)body + at, piece, &used, &data);
		if (why)
			return why;
		memcpy(out + *out_len, body + at, data);
		*out_len += data;
		at += used;
	}
	return http_chunked_done(&c) && at == len ? NULL : "not done";
}

TEST(net_http_chunked_bodies)
{
	static const char body[] = "5;name=v\r\nhello\r\n1A\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\n"
				   "Trailer: x\r\n\r\n";
	char out[64];
	size_t n;

	for (size_t step = 1; step < sizeof(body); step++) {
		ASSERT(dechunk(body, step, out, &n) == NULL);
		ASSERT_EQ(n, 31u);
		ASSERT(!memcmp(out, "helloabcdefghijklmnopqrstuvwxyz", 31));
	}
	EXPECT(dechunk("0\r\n\r\n", 3, out, &n) == NULL && n == 0);
}

TEST(net_http_chunked_refusals)
{
	static const char *bad[] = {
	    "\r\n",
	    "g\r\n",
	    "5\nhello\r\n0\r\n\r\n",
	    "5\r\nhelloX\r\n0\r\n\r\n",
	    "1;\x01\r\nx\r\n",
	    "10000000000000000\r\n",
	    "0\r\n\r\nmore",
	    "FFFFFFFFFFF\r\n",
	};
	char out[64];
	size_t n;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(dechunk(bad[i], 4, out, &n) != NULL);
}
