/* Parameter values of text device nodes (UEFI 2.10, 10.6.1.1 "Parameter Types"): integers,
 * keywords, GUIDs, hex dumps, EISA IDs, IP addresses. Every function reads only s.n
 * characters and refuses trailing garbage and overflow. */
#define LOG_PREFIX "devpath: "
#include "devpath_internal.h"
#include <ember/core/log.h>
#include <ember/lib/str.h>

static int hex_digit(CHAR16 c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Digits in the given base (10 or 16), at least one, value no larger than max. */
static bool digits_u64(const CHAR16 *s, UINTN n, unsigned base, UINT64 max, UINT64 *v)
{
	UINT64 value = 0;

	if (!n)
		return false;
	for (UINTN i = 0; i < n; i++) {
		int d = hex_digit(s[i]);

		if (d < 0 || (unsigned)d >= base)
			return false;
		if ((UINT64)d > max || value > (max - (UINT64)d) / base)
			return false;
		value = value * base + (UINT64)d;
	}
	*v = value;
	return true;
}

static bool has_hex_prefix(struct dp_str s)
{
	return s.n >= 2 && s.s[0] == '0' && (s.s[1] == 'x' || s.s[1] == 'X');
}

bool dp_str_u64(struct dp_str s, UINT64 max, UINT64 *v)
{
	if (has_hex_prefix(s))
		return digits_u64(s.s + 2, s.n - 2, 16, max, v);
	return digits_u64(s.s, s.n, 10, max, v);
}

bool dp_str_hex_u64(struct dp_str s, UINT64 *v)
{
	if (has_hex_prefix(s))
		s.s += 2, s.n -= 2;
	return digits_u64(s.s, s.n, 16, UINT64_MAX, v);
}

bool dp_str_eq(struct dp_str s, const char *word)
{
	UINTN i = 0;

	for (; i < s.n && word[i]; i++)
		if (char16_upper(s.s[i]) != char16_upper((UINT8)word[i]))
			return false;
	return i == s.n && !word[i];
}

bool dp_str_guid(struct dp_str s, EFI_GUID *guid)
{
	char text[36];

	if (s.n != sizeof(text))
		return false;
	for (UINTN i = 0; i < s.n; i++) {
		if (s.s[i] > 0x7f)
			return false;
		text[i] = (char)s.s[i];
	}
	return guid_from_str(guid, text, sizeof(text));
}

bool dp_str_hexdump(struct dp_str s, UINT8 *dst, UINTN max, UINTN *n)
{
	if (s.n % 2 || s.n / 2 > max)
		return false;
	for (UINTN i = 0; i < s.n; i += 2) {
		int hi = hex_digit(s.s[i]), lo = hex_digit(s.s[i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		dst[i / 2] = (UINT8)(hi << 4 | lo);
	}
	*n = s.n / 2;
	return true;
}

bool dp_buf_put_hexdump(struct dp_buf *b, struct dp_str s)
{
	UINT8 chunk[64];

	if (s.n % 2)
		return false;
	while (s.n) {
		UINTN take = MIN(s.n, 2 * sizeof(chunk)), got;

		if (!dp_str_hexdump((struct dp_str){s.s, take}, chunk, sizeof(chunk), &got))
			return false;
		dp_buf_put(b, chunk, got);
		s.s += take;
		s.n -= take;
	}
	return !b->failed;
}

static bool is_upper_letter(CHAR16 c)
{
	c = char16_upper(c);
	return c >= 'A' && c <= 'Z';
}

bool dp_str_eisa(struct dp_str s, UINT32 *id)
{
	UINT64 v;

	/* "PNP0A03": three letters compressed to 5 bits each, then the 16-bit product number. */
	if (s.n == 7 && is_upper_letter(s.s[0]) && is_upper_letter(s.s[1]) &&
	    is_upper_letter(s.s[2])) {
		if (!digits_u64(s.s + 3, 4, 16, 0xffff, &v))
			return false;
		*id = (UINT32)(v << 16) | (UINT32)(char16_upper(s.s[0]) - 'A' + 1) << 10 |
		      (UINT32)(char16_upper(s.s[1]) - 'A' + 1) << 5 |
		      (UINT32)(char16_upper(s.s[2]) - 'A' + 1);
		return true;
	}
	if (!dp_str_u64(s, UINT32_MAX, &v))
		return false;
	*id = (UINT32)v;
	return true;
}

static bool has_char(struct dp_str s, CHAR16 c)
{
	for (UINTN i = 0; i < s.n; i++)
		if (s.s[i] == c)
			return true;
	return false;
}

/* Splits s at the first c: head before it, s after it; false when c is absent. */
static bool split_at(struct dp_str *s, CHAR16 c, struct dp_str *head)
{
	for (UINTN i = 0; i < s->n; i++) {
		if (s->s[i] == c) {
			*head = (struct dp_str){s->s, i};
			s->s += i + 1;
			s->n -= i + 1;
			return true;
		}
	}
	return false;
}

/* ":port" (decimal) or nothing; a NULL port refuses one. */
static bool parse_port(struct dp_str s, UINT16 *port)
{
	UINT64 v;

	if (!s.n)
		return true;
	if (!port || s.s[0] != ':' || !digits_u64(s.s + 1, s.n - 1, 10, 0xffff, &v))
		return false;
	*port = (UINT16)v;
	return true;
}

bool dp_str_ipv4(struct dp_str s, UINT8 addr[4], UINT16 *port)
{
	UINT64 v;

	for (int i = 0; i < 4; i++) {
		UINTN k = 0;

		while (k < s.n && k < 3 && s.s[k] >= '0' && s.s[k] <= '9')
			k++;
		if (!digits_u64(s.s, k, 10, 255, &v))
			return false;
		addr[i] = (UINT8)v;
		s.s += k;
		s.n -= k;
		if (i < 3) {
			if (!s.n || s.s[0] != '.')
				return false;
			s.s++, s.n--;
		}
	}
	return parse_port(s, port);
}

/* Appends the 16-bit groups of one side of "::" to groups[]; false on bad syntax. */
static bool ipv6_groups(struct dp_str s, UINT16 *groups, UINTN *count)
{
	struct dp_str part;
	UINT8 v4[4];
	UINT64 v;

	while (s.n) {
		if (!split_at(&s, ':', &part)) {
			part = s;
			s.n = 0;
			/* RFC 4291 2.2 (3): the last 32 bits may be dotted IPv4. */
			if (has_char(part, '.')) {
				if (*count > 6 || !dp_str_ipv4(part, v4, NULL))
					return false;
				groups[(*count)++] = (UINT16)(v4[0] << 8 | v4[1]);
				groups[(*count)++] = (UINT16)(v4[2] << 8 | v4[3]);
				return true;
			}
		} else if (!s.n) {
			return false; /* trailing ':' */
		}
		if (*count >= 8 || part.n > 4 || !digits_u64(part.s, part.n, 16, 0xffff, &v))
			return false;
		groups[(*count)++] = (UINT16)v;
	}
	return true;
}

static bool parse_ipv6_address(struct dp_str s, UINT8 addr[16])
{
	UINT16 head[8], tail[8];
	UINTN nh = 0, nt = 0, gap = SIZE_MAX;

	for (UINTN i = 0; i + 1 < s.n; i++) {
		if (s.s[i] == ':' && s.s[i + 1] == ':') {
			gap = i;
			break;
		}
	}
	if (gap == SIZE_MAX) {
		if (!ipv6_groups(s, head, &nh) || nh != 8)
			return false;
	} else {
		struct dp_str after = {s.s + gap + 2, s.n - gap - 2};

		if (!ipv6_groups((struct dp_str){s.s, gap}, head, &nh) ||
		    !ipv6_groups(after, tail, &nt) || nh + nt > 7)
			return false;
	}
	mem_set(addr, 0, 16);
	for (UINTN i = 0; i < nh; i++)
		addr[2 * i] = (UINT8)(head[i] >> 8), addr[2 * i + 1] = (UINT8)head[i];
	for (UINTN i = 0; i < nt; i++) {
		UINTN at = 16 - 2 * (nt - i);

		addr[at] = (UINT8)(tail[i] >> 8), addr[at + 1] = (UINT8)tail[i];
	}
	return true;
}

bool dp_str_ipv6(struct dp_str s, UINT8 addr[16], UINT16 *port)
{
	struct dp_str inner;

	/* 10.6.1.1: "[address]:port", the brackets optional when there is no port. */
	if (s.n && s.s[0] == '[') {
		s.s++, s.n--;
		if (!split_at(&s, ']', &inner))
			return false;
		return parse_ipv6_address(inner, addr) && parse_port(s, port);
	}
	return parse_ipv6_address(s, addr);
}

struct dp_str dp_str_unquote(struct dp_str s)
{
	if (s.n >= 2 && s.s[0] == '"' && s.s[s.n - 1] == '"')
		return (struct dp_str){s.s + 1, s.n - 2};
	return s;
}

/* Says why parameter i (counted from 0) of a node is refused; returns false. */
static bool refuse_arg(const struct dp_args *a, UINTN i, const char *what, UINT64 max)
{
	if (!dp_arg_given(a, i))
		log_debug("parameter %u is missing\n", (UINT32)i + 1);
	else if (max)
		log_debug("parameter %u \"%.*ls\": %s up to %llu\n", (UINT32)i + 1, (int)a->v[i].n,
			  a->v[i].s, what, (unsigned long long)max);
	else
		log_debug("parameter %u \"%.*ls\": %s\n", (UINT32)i + 1, (int)a->v[i].n, a->v[i].s,
			  what);
	return false;
}

bool dp_arg_u64(const struct dp_args *a, UINTN i, UINT64 max, UINT64 *v)
{
	if (!dp_arg_given(a, i) || dp_str_u64(a->v[i], max, v))
		return true;
	return refuse_arg(a, i, "not a number", max);
}

bool dp_arg_req_u64(const struct dp_args *a, UINTN i, UINT64 max, UINT64 *v)
{
	if (dp_arg_given(a, i) && dp_str_u64(a->v[i], max, v))
		return true;
	return refuse_arg(a, i, "not a number", max);
}

bool dp_arg_kw(const struct dp_args *a, UINTN i, const struct dp_kw *kw, UINTN n, UINT64 max,
	       UINT64 *v)
{
	if (!dp_arg_given(a, i))
		return true;
	for (UINTN k = 0; k < n; k++) {
		if (dp_str_eq(a->v[i], kw[k].word)) {
			*v = kw[k].value;
			return true;
		}
	}
	if (dp_str_u64(a->v[i], max, v))
		return true;
	return refuse_arg(a, i, "neither a keyword nor a number", max);
}

bool dp_arg_be8(const struct dp_args *a, UINTN i, bool required, UINT8 out[8])
{
	UINT64 v = 0;

	if (dp_arg_given(a, i) ? !dp_str_u64(a->v[i], UINT64_MAX, &v) : required)
		return refuse_arg(a, i, "not a number", UINT64_MAX);
	for (int k = 0; k < 8; k++)
		out[k] = (UINT8)(v >> (56 - 8 * k));
	return true;
}

bool dp_arg_req_guid(const struct dp_args *a, UINTN i, EFI_GUID *guid)
{
	if (dp_arg_given(a, i) && dp_str_guid(a->v[i], guid))
		return true;
	return refuse_arg(a, i, "not a GUID", 0);
}

bool dp_buf_put_str8(struct dp_buf *b, struct dp_str s, bool nul)
{
	UINT8 chunk[64];

	while (s.n) {
		UINTN take = MIN(s.n, sizeof(chunk));

		for (UINTN i = 0; i < take; i++) {
			if (s.s[i] > 0xff)
				return false;
			chunk[i] = (UINT8)s.s[i];
		}
		dp_buf_put(b, chunk, take);
		s.s += take;
		s.n -= take;
	}
	if (nul)
		dp_buf_put(b, "", 1);
	return !b->failed;
}

bool dp_parse_vendor(const struct dp_args *a, struct dp_buf *out, UINT8 type, UINT8 subtype)
{
	EFI_GUID guid;
	UINTN start;

	if (!dp_arg_req_guid(a, 0, &guid))
		return false;
	start = dp_buf_node_begin(out, type, subtype);
	dp_buf_put(out, &guid, sizeof(guid));
	if (dp_arg_given(a, 1) && !dp_buf_put_hexdump(out, a->v[1]))
		return false;
	return dp_buf_node_end(out, start);
}
