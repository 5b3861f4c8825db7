/* Reading a DHCPv4 server's reply (RFC 2131, RFC 2132 options): every option bounded by the
 * area it lies in, every known one checked for its length, nothing guessed. */
#include <ember/lib/str.h>
#include <ember/net/dhcp4.h>

#define BOOTP_SNAME 44
#define BOOTP_SNAME_LEN 64
#define BOOTP_FILE 108
#define BOOTP_FILE_LEN 128
#define DHCP4_COOKIE 0x63825363u

/* Where the walk of the option areas is. */
struct dhcp4_walk {
	bool seen[256];
	uint8_t overload; /* option 52's value, 0 when absent */
	struct dhcp4_reply *out;
};

/* Copies text of len bytes (trailing NULs allowed) as a C string; refuses control
 * characters and NULs inside it. */
static bool dhcp4_text(char *dst, size_t cap, const uint8_t *src, size_t len)
{
	size_t n = len;

	while (n && src[n - 1] == 0)
		n--;
	if (n >= cap)
		return false;
	for (size_t i = 0; i < n; i++) {
		if (src[i] < 0x20 || src[i] == 0x7f)
			return false;
		dst[i] = (char)src[i];
	}
	dst[n] = 0;
	return true;
}

/* The length of a NUL-terminated field of at most max bytes. */
static size_t dhcp4_nlen(const uint8_t *s, size_t max)
{
	size_t n = 0;

	while (n < max && s[n])
		n++;
	return n;
}

static bool dhcp4_starts(const uint8_t *v, size_t len, const char *prefix)
{
	size_t n = str8_len(prefix);

	return len >= n && mem_cmp(v, prefix, n) == 0;
}

/* An address list (1, 3, 6, 54): whole addresses only; the first is kept. */
static const char *dhcp4_addr(const uint8_t *v, size_t len, bool list, uint32_t *out)
{
	if (len < 4 || len % 4 || (!list && len != 4))
		return "address option of a wrong length";
	*out = net_get32(v);
	return NULL;
}

/* One option of code with len bytes at v; in_options says it lies in the options field. */
static const char *dhcp4_option(struct dhcp4_walk *w, uint8_t code, const uint8_t *v, size_t len,
				bool in_options)
{
	struct dhcp4_reply *r = w->out;

	switch (code) {
	case 1:
		return dhcp4_addr(v, len, false, &r->subnet);
	case 3:
		return dhcp4_addr(v, len, true, &r->router);
	case 6:
		return dhcp4_addr(v, len, true, &r->dns);
	case 54:
		return dhcp4_addr(v, len, false, &r->server_id);
	case 51:
		return dhcp4_addr(v, len, false, &r->lease);
	case 53:
		if (len != 1 || v[0] < DHCP4_DISCOVER || v[0] > DHCP4_INFORM)
			return "bad message type";
		r->type = v[0];
		return NULL;
	case 52:
		if (!in_options)
			return "overload outside the options field";
		if (len != 1 || v[0] < 1 || v[0] > 3)
			return "bad overload";
		w->overload = v[0];
		return NULL;
	case 60:
		if (!len)
			return "empty vendor class";
		r->pxe_class = dhcp4_starts(v, len, "PXEClient");
		r->http_class = dhcp4_starts(v, len, "HTTPClient");
		return NULL;
	case 66:
		return len && dhcp4_text(r->tftp_server, sizeof(r->tftp_server), v, len)
			   ? NULL
			   : "bad TFTP server name";
	case 67:
		return len && dhcp4_text(r->boot_file, sizeof(r->boot_file), v, len)
			   ? NULL
			   : "bad boot file name";
	}
	return NULL; /* other options are not used: skipped whole */
}

/* Walks one area of options; its end option must close it. */
static const char *dhcp4_area(struct dhcp4_walk *w, const uint8_t *p, size_t len, bool in_options)
{
	size_t at = 0;

	while (at < len) {
		uint8_t code = p[at], olen;
		const char *why;

		if (code == 0) {
			at++;
			continue;
		}
		if (code == 255)
			return NULL;
		if (len - at < 2 || (olen = p[at + 1]) > len - at - 2)
			return "option past the end of its area";
		/* RFC 3396 would concatenate repeated options; a repeat is refused instead. */
		if (w->seen[code])
			return "option repeated";
		w->seen[code] = true;
		why = dhcp4_option(w, code, p + at + 2, olen, in_options);
		if (why)
			return why;
		at += 2 + (size_t)olen;
	}
	return "no end option";
}

static const char *dhcp4_header(const uint8_t *p, size_t len, uint32_t xid, const uint8_t *mac)
{
	if (!p || len < DHCP4_OPTIONS_OFFSET)
		return "shorter than a DHCP message";
	if (p[0] != 2)
		return "not a BOOTREPLY";
	if (p[1] != 1 || p[2] != NET_MAC_LEN)
		return "not Ethernet";
	if (net_get32(p + 4) != xid)
		return "another transaction";
	if (mem_cmp(p + 28, mac, NET_MAC_LEN) != 0)
		return "another client";
	if (net_get32(p + 236) != DHCP4_COOKIE)
		return "no magic cookie";
	return NULL;
}

const char *dhcp4_parse(const uint8_t *p, size_t len, uint32_t xid, const uint8_t *mac,
			struct dhcp4_reply *out)
{
	struct dhcp4_walk w = {.out = out};
	const char *why = dhcp4_header(p, len, xid, mac);

	mem_set(out, 0, sizeof(*out));
	if (why)
		return why;
	out->yiaddr = net_get32(p + 16);
	out->siaddr = net_get32(p + 20);
	why = dhcp4_area(&w, p + DHCP4_OPTIONS_OFFSET, len - DHCP4_OPTIONS_OFFSET, true);
	if (!why && (w.overload & 1))
		why = dhcp4_area(&w, p + BOOTP_FILE, BOOTP_FILE_LEN, false);
	if (!why && (w.overload & 2))
		why = dhcp4_area(&w, p + BOOTP_SNAME, BOOTP_SNAME_LEN, false);
	if (why)
		return why;
	if (!out->type)
		return "no message type";
	/* The file field names the boot file unless it holds options or option 67 did. */
	if (!(w.overload & 1) && !out->boot_file[0] && p[BOOTP_FILE] &&
	    !dhcp4_text(out->boot_file, sizeof(out->boot_file), p + BOOTP_FILE,
			dhcp4_nlen(p + BOOTP_FILE, BOOTP_FILE_LEN)))
		return "bad file field";
	return NULL;
}
