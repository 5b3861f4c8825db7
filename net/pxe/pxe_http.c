/* The HTTP/1.1 client over the PXE driver's TCP: one GET at a time (Connection: close),
 * the header block read into a bounded buffer, the body by Content-Length, chunked or up
 * to the close, following a few redirects. A peer that stops sending for HTTP_IDLE_NS ends
 * the download: never a hang. */
#define LOG_PREFIX "http: "
#include <ember/core/core.h>
#include <ember/core/log.h>
#include <ember/lib/format.h>
#include <ember/lib/str.h>
#include "pxe.h"

#define HTTP_REDIRECTS 4
#define HTTP_IDLE_NS 30000000000ull
#define HTTP_CLOSE_NS 200000000ull
#define HTTP_GROW_FIRST (1024 * 1024)
#define HTTP_BODY_MAX (4ull << 30) /* a body of unknown length is refused past this */
#define HTTP_PIECE 16384
#define HTTP_PAUSE_MAX_US 50
#define NS_PER_S 1000000000ull

struct http_get {
	struct pxe_dev *d;
	struct pxe_tcp *t;
	char head[HTTP_HEAD_MAX];
	size_t head_len;
	struct http_response r;
	uint8_t *data;
	UINT64 size, cap;
	bool show;
	UINT64 start, shown_at;
	UINT64 pause_us;
};

void pxe_http_free(struct pxe_http_body *b)
{
	pool_free(b->data);
	b->data = NULL;
	b->size = 0;
}

/* Pumps the connection once; waits a little when nothing came. Fails when the connection
 * died or nothing came for HTTP_IDLE_NS. */
static EFI_STATUS http_pump(struct http_get *g, UINT64 *idle_since)
{
	bool got;
	EFI_STATUS status = pxe_tcp_pump(g->d, g->t, &got);

	if (EFI_ERROR(status))
		return status;
	if (got) {
		*idle_since = core_time_ns();
		g->pause_us = 1;
		return EFI_SUCCESS;
	}
	if (core_time_ns() - *idle_since > HTTP_IDLE_NS) {
		log_warn("the server sent nothing for %llu s\n", HTTP_IDLE_NS / NS_PER_S);
		return EFI_TIMEOUT;
	}
	core_stall_us(g->pause_us);
	g->pause_us = g->pause_us < HTTP_PAUSE_MAX_US ? g->pause_us * 2 : HTTP_PAUSE_MAX_US;
	return EFI_SUCCESS;
}

/* Reads up to cap bytes, waiting for at least one; *n is 0 at the end of the stream. */
static EFI_STATUS http_read(struct http_get *g, void *buf, size_t cap, size_t *n)
{
	UINT64 idle_since = core_time_ns();

	for (;;) {
		EFI_STATUS status;
		*n = tcp_conn_read(&g->t->conn, buf, cap);
		if (*n || tcp_conn_eof(&g->t->conn))
			return EFI_SUCCESS;
		status = http_pump(g, &idle_since);
		if (EFI_ERROR(status))
			return status;
	}
}

static void http_progress(struct http_get *g, bool last)
{
	UINT64 now = core_time_ns(), ns = now - g->start;
	UINT64 rate = g->size * NS_PER_S / (ns ? ns : 1) / 1024;

	if (!g->show || (!last && now - g->shown_at < NS_PER_S))
		return;
	g->shown_at = now;
	if (last)
		pxe_say("\r  Downloaded %llu bytes in %llu ms (%llu KiB/s)\r\n",
			(unsigned long long)g->size, (unsigned long long)(ns / 1000000),
			(unsigned long long)rate);
	else
		pxe_say("\r  %llu KiB (%llu KiB/s)", (unsigned long long)(g->size / 1024),
			(unsigned long long)rate);
}

/* Makes room for need more bytes of a body of unknown length. */
static EFI_STATUS http_grow(struct http_get *g, UINT64 need)
{
	UINT64 cap = g->cap ? g->cap : HTTP_GROW_FIRST;
	uint8_t *bigger;

	if (g->size + need <= g->cap)
		return EFI_SUCCESS;
	while (cap < g->size + need)
		cap *= 2;
	if (cap > HTTP_BODY_MAX) {
		log_warn("a body of unknown length over %llu MiB: refused\n", HTTP_BODY_MAX >> 20);
		return EFI_BAD_BUFFER_SIZE;
	}
	bigger = pool_alloc_typed(EfiBootServicesData, cap);
	if (!bigger) {
		log_debug("no memory for %llu bytes\n", (unsigned long long)cap);
		return EFI_OUT_OF_RESOURCES;
	}
	mem_copy(bigger, g->data, g->size);
	pool_free(g->data);
	g->data = bigger;
	g->cap = cap;
	return EFI_SUCCESS;
}

static EFI_STATUS http_body_length(struct http_get *g, size_t left_in_head)
{
	UINT64 len = g->r.content_length;

	g->data = pool_alloc_typed(EfiBootServicesData, len ? len : 1);
	if (!g->data) {
		log_warn("no memory for a body of %llu bytes\n", (unsigned long long)len);
		return EFI_OUT_OF_RESOURCES;
	}
	g->cap = len;
	g->size = left_in_head < len ? left_in_head : len;
	mem_copy(g->data, g->head + g->head_len, g->size);
	while (g->size < len) {
		size_t n, want = (size_t)(len - g->size);
		EFI_STATUS status = http_read(g, g->data + g->size, want, &n);
		if (EFI_ERROR(status))
			return status;
		if (!n) {
			log_warn("the connection closed after %llu of %llu bytes\n",
				 (unsigned long long)g->size, (unsigned long long)len);
			return EFI_END_OF_FILE;
		}
		g->size += n;
		http_progress(g, false);
	}
	return EFI_SUCCESS;
}

/* Takes in n bytes of the body's wire form (chunked or up to the close). */
static EFI_STATUS http_body_bytes(struct http_get *g, struct http_chunked *ch, const uint8_t *p,
				  size_t n)
{
	while (n) {
		size_t used = n, data = n;
		EFI_STATUS status;
		if (g->r.chunked) {
			const char *why = http_chunked_step(ch, p, n, &used, &data);
			if (why) {
				log_warn("bad chunked body: %s\n", why);
				return EFI_PROTOCOL_ERROR;
			}
			if (!used)
				break; /* the last chunk: the rest is ignored */
		}
		status = http_grow(g, data);
		if (EFI_ERROR(status))
			return status;
		mem_copy(g->data + g->size, p, data);
		g->size += data;
		p += used;
		n -= used;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS http_body_stream(struct http_get *g, size_t left_in_head)
{
	static uint8_t piece[HTTP_PIECE];
	struct http_chunked ch;
	EFI_STATUS status;
	size_t n;

	http_chunked_init(&ch);
	status = http_body_bytes(g, &ch, (const uint8_t *)g->head + g->head_len, left_in_head);
	while (!EFI_ERROR(status) && !(g->r.chunked && http_chunked_done(&ch))) {
		status = http_read(g, piece, sizeof(piece), &n);
		if (EFI_ERROR(status))
			break;
		if (!n) {
			if (g->r.chunked) {
				log_warn("the connection closed inside a chunked body\n");
				status = EFI_END_OF_FILE;
			}
			break;
		}
		status = http_body_bytes(g, &ch, piece, n);
		http_progress(g, false);
	}
	return status;
}

/* Reads the header block after the *got bytes already in head; bytes of the body after it
 * stay in head past head_len. */
static EFI_STATUS http_read_head(struct http_get *g, size_t *got)
{
	const char *why;

	while (!(g->head_len = http_head_length(g->head, *got))) {
		size_t n = 0;
		EFI_STATUS status = EFI_SUCCESS;

		if (*got < sizeof(g->head))
			status = http_read(g, g->head + *got, sizeof(g->head) - *got, &n);
		if (EFI_ERROR(status))
			return status;
		if (!n) {
			log_warn("%s\n", *got == sizeof(g->head)
					     ? "the response's header is too long"
					     : "the connection closed inside the header");
			return EFI_PROTOCOL_ERROR;
		}
		*got += n;
	}
	why = http_response_parse(g->head, g->head_len, &g->r);
	if (why) {
		log_warn("bad response header: %s\n", why);
		return EFI_PROTOCOL_ERROR;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS http_status_to_efi(unsigned status)
{
	if (status == 404 || status == 410)
		return EFI_NOT_FOUND;
	if (status == 401 || status == 403)
		return EFI_ACCESS_DENIED;
	return EFI_HTTP_ERROR;
}

/* Closes our side and lets the FIN go out, briefly: the server needs nothing more. */
static void http_close(struct http_get *g)
{
	UINT64 until = core_time_ns() + HTTP_CLOSE_NS;
	bool got;

	log_debug(
	    "connection done: %llu out of order, %llu dropped, %llu retransmitted, srtt %llu us\n",
	    (unsigned long long)g->t->conn.out_of_order, (unsigned long long)g->t->conn.dropped,
	    (unsigned long long)g->t->conn.retransmits,
	    (unsigned long long)(g->t->conn.srtt_ns / 1000));
	tcp_conn_close(&g->t->conn);
	while (g->t->conn.state != TCP_TIME_WAIT && !tcp_conn_dead(&g->t->conn) &&
	       core_time_ns() < until) {
		tcp_conn_read(&g->t->conn, g->head, sizeof(g->head));
		if (EFI_ERROR(pxe_tcp_pump(g->d, g->t, &got)))
			break;
		if (!got)
			core_stall_us(100);
	}
}

static EFI_STATUS http_connect(struct http_get *g, const struct http_url *u)
{
	uint32_t ip = u->ip;
	char req[HTTP_REQUEST_MAX];
	size_t n = http_request_build(req, sizeof(req), u);
	EFI_STATUS status = EFI_SUCCESS;

	if (!u->is_ip)
		status = pxe_dns_resolve(g->d, u->host, &ip);
	if (EFI_ERROR(status)) {
		log_warn("cannot resolve %s: %r\n", u->host, status);
		return status;
	}
	status = pxe_tcp_connect(g->d, g->t, ip, u->port);
	if (EFI_ERROR(status)) {
		log_warn("cannot connect to %s:%u: %r\n", u->host, u->port, status);
		return status;
	}
	if (!n || tcp_conn_write(&g->t->conn, req, n) != n)
		return EFI_BAD_BUFFER_SIZE; /* a request always fits TCP_TX_SIZE */
	return EFI_SUCCESS;
}

/* One request: the response's header in g->r, its body in g->data when it is a 2xx. */
static EFI_STATUS http_get_once(struct http_get *g, const struct http_url *u)
{
	EFI_STATUS status = http_connect(g, u);
	size_t got = 0;

	for (int interim = 0; !EFI_ERROR(status); interim++) {
		status = http_read_head(g, &got);
		if (EFI_ERROR(status) || g->r.status >= 200)
			break;
		/* 1xx: an interim answer; the real one follows (a few at most). */
		if (interim == 4) {
			status = EFI_PROTOCOL_ERROR;
			break;
		}
		got -= g->head_len;
		mem_copy(g->head, g->head + g->head_len, got);
	}
	if (!EFI_ERROR(status) && g->r.status >= 200 && g->r.status < 300) {
		g->start = g->shown_at = core_time_ns();
		status = g->r.has_length ? http_body_length(g, got - g->head_len)
					 : http_body_stream(g, got - g->head_len);
	}
	http_close(g);
	return status;
}

/* The URL a redirect names: absolute, or a path on the same server. */
static bool http_redirect(const struct http_url *u, const char *location, char *next, size_t cap)
{
	size_t n;

	if (location[0] == '/')
		n = format_sn(next, cap, "http://%s:%u%s", u->host, u->port, location);
	else
		n = format_sn(next, cap, "%s", location);
	return n < cap;
}

static EFI_STATUS http_get_run(struct http_get *g, const char *url)
{
	static char current[HTTP_URL_MAX + 1];
	struct http_url u;

	format_sn(current, sizeof(current), "%s", url);
	for (int hop = 0; hop <= HTTP_REDIRECTS; hop++) {
		const char *why = http_url_parse(current, &u);
		EFI_STATUS status;

		if (why) {
			log_warn("URL \"%s\" refused: %s\n", current, why);
			return EFI_INVALID_PARAMETER;
		}
		status = http_get_once(g, &u);
		if (EFI_ERROR(status))
			return status;
		if (g->r.status >= 200 && g->r.status < 300)
			return EFI_SUCCESS;
		if (g->r.status / 100 != 3 || !g->r.location[0]) {
			log_warn("%s: HTTP status %u\n", current, g->r.status);
			return http_status_to_efi(g->r.status);
		}
		log_info("%s redirects to %s\n", current, g->r.location);
		if (!http_redirect(&u, g->r.location, current, sizeof(current)))
			return EFI_BAD_BUFFER_SIZE;
	}
	log_warn("more than %u redirects\n", HTTP_REDIRECTS);
	return EFI_HTTP_ERROR;
}

EFI_STATUS pxe_http_get(struct pxe_dev *d, const char *url, bool show, struct pxe_http_body *out)
{
	struct http_get *g = pool_alloc(sizeof(*g));
	struct pxe_tcp *t = pool_alloc(sizeof(*t));
	EFI_STATUS status = EFI_OUT_OF_RESOURCES;

	if (!g || !t) {
		log_debug("no memory for a download\n");
		goto out;
	}
	g->d = d;
	g->t = t;
	g->show = show;
	g->pause_us = 1;
	status = http_get_run(g, url);
	if (EFI_ERROR(status)) {
		pool_free(g->data);
		goto out;
	}
	http_progress(g, true);
	out->data = g->data;
	out->size = g->size;
	format_sn(out->content_type, sizeof(out->content_type), "%s", g->r.content_type);
	format_sn(out->url, sizeof(out->url), "%s", url);
out:
	pool_free(t);
	pool_free(g);
	return status;
}
