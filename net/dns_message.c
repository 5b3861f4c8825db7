/* DNS messages (RFC 1035, 4): the A query and its answer. Names in a reply are read with
 * compression (4.1.4) bounded: a pointer must point before the label that holds it and at
 * most DNS_JUMPS_MAX are followed, so no name loops or runs past the message. */
#include <ember/lib/str.h>
#include <ember/net/dns.h>

#define DNS_HLEN 12
#define DNS_TYPE_A 1
#define DNS_TYPE_CNAME 5
#define DNS_CLASS_IN 1
#define DNS_LABEL_MAX 63

static char dns_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static bool dns_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '-' || c == '_';
}

/* Writes name as labels at p (at least DNS_NAME_MAX + 2 bytes); returns the length or 0. */
static size_t dns_name_encode(uint8_t *p, const char *name)
{
	size_t n = str8_len(name), at = 0;

	if (n && name[n - 1] == '.')
		n--;
	if (!n || n > DNS_NAME_MAX)
		return 0;
	while (at < n) {
		size_t label = 0;
		while (at + label < n && name[at + label] != '.') {
			if (!dns_name_char(name[at + label]))
				return 0;
			label++;
		}
		if (!label || label > DNS_LABEL_MAX)
			return 0;
		p[at] = (uint8_t)label;
		mem_copy(p + at + 1, name + at, label);
		at += label + 1;
	}
	p[n + 1] = 0;
	return n + 2;
}

size_t dns_query_build(uint8_t *buf, size_t cap, uint16_t id, const char *name)
{
	uint8_t qname[DNS_NAME_MAX + 2];
	size_t n = dns_name_encode(qname, name);

	if (!n || cap < DNS_HLEN + n + 4)
		return 0;
	mem_set(buf, 0, DNS_HLEN);
	net_put16(buf, id);
	buf[2] = 0x01; /* RD: recursion desired */
	net_put16(buf + 4, 1);
	mem_copy(buf + DNS_HLEN, qname, n);
	net_put16(buf + DNS_HLEN + n, DNS_TYPE_A);
	net_put16(buf + DNS_HLEN + n + 2, DNS_CLASS_IN);
	return DNS_HLEN + n + 4;
}

/* Reads the name at *at into out (text, lower case, no final dot) and moves *at past it. */
static const char *dns_name_read(const uint8_t *p, size_t len, size_t *at, char *out)
{
	size_t pos = *at, n = 0, limit = len;
	unsigned jumps = 0;
	bool jumped = false;

	for (;;) {
		uint8_t l;
		if (pos >= limit)
			return "name past the message";
		l = p[pos];
		if ((l & 0xc0) == 0xc0) {
			size_t to;
			if (pos + 1 >= limit)
				return "name past the message";
			to = (size_t)(l & 0x3f) << 8 | p[pos + 1];
			/* Only backwards, and never into the name's own part: no loop. */
			if (to >= pos || ++jumps > DNS_JUMPS_MAX)
				return "bad compression pointer";
			if (!jumped)
				*at = pos + 2;
			jumped = true;
			limit = pos;
			pos = to;
			continue;
		}
		if (l & 0xc0)
			return "bad label type";
		if (!l)
			break;
		if (pos + 1 + l > limit || n + l + (n ? 1 : 0) > DNS_NAME_MAX)
			return "label past the message or name too long";
		if (n)
			out[n++] = '.';
		for (unsigned i = 0; i < l; i++)
			out[n++] = dns_lower((char)p[pos + 1 + i]);
		pos += 1 + l;
	}
	out[n] = 0;
	if (!jumped)
		*at = pos + 1;
	return NULL;
}

static bool dns_name_eq(const char *a, const char *b)
{
	size_t bn = str8_len(b);

	if (bn && b[bn - 1] == '.')
		bn--;
	for (size_t i = 0; i < bn; i++)
		if (a[i] != dns_lower(b[i]))
			return false;
	return a[bn] == 0;
}

struct dns_record {
	char owner[DNS_NAME_MAX + 1];
	uint16_t type, class;
	size_t data, data_len; /* offset and length of RDATA */
};

static const char *dns_record_read(const uint8_t *p, size_t len, size_t *at, struct dns_record *r)
{
	const char *why = dns_name_read(p, len, at, r->owner);

	if (why)
		return why;
	if (*at + 10 > len)
		return "record past the message";
	r->type = net_get16(p + *at);
	r->class = net_get16(p + *at + 2);
	r->data_len = net_get16(p + *at + 8);
	r->data = *at + 10;
	if (r->data_len > len - r->data)
		return "record data past the message";
	*at = r->data + r->data_len;
	return NULL;
}

/* The header and the question: the reply to our query. */
static const char *dns_check_question(const uint8_t *p, size_t len, uint16_t id, const char *name,
				      size_t *at)
{
	char qname[DNS_NAME_MAX + 1];
	const char *why;

	if (len < DNS_HLEN)
		return "shorter than a DNS header";
	if (net_get16(p) != id)
		return "another query's id";
	if (!(p[2] & 0x80) || (p[2] & 0x78))
		return "not a reply to a standard query";
	if (p[2] & 0x02)
		return "truncated reply";
	if (p[3] & 0x0f)
		return (p[3] & 0x0f) == 3 ? "no such name" : "the server reports an error";
	if (net_get16(p + 4) != 1)
		return "not one question";
	*at = DNS_HLEN;
	why = dns_name_read(p, len, at, qname);
	if (why)
		return why;
	if (*at + 4 > len || !dns_name_eq(qname, name) || net_get16(p + *at) != DNS_TYPE_A ||
	    net_get16(p + *at + 2) != DNS_CLASS_IN)
		return "not the question asked";
	*at += 4;
	return NULL;
}

/* Looks through the answers for target's A record, or its CNAME (then *target changes). */
static const char *dns_follow(const uint8_t *p, size_t len, size_t answers, unsigned count,
			      char *target, uint32_t *addr, bool *found, bool *aliased)
{
	struct dns_record r;
	size_t at = answers;

	*found = *aliased = false;
	for (unsigned i = 0; i < count; i++) {
		const char *why = dns_record_read(p, len, &at, &r);
		if (why)
			return why;
		if (r.class != DNS_CLASS_IN || str8_cmp(r.owner, target))
			continue;
		if (r.type == DNS_TYPE_A) {
			if (r.data_len != 4)
				return "A record of a bad length";
			*addr = net_get32(p + r.data);
			*found = true;
			return NULL;
		}
		if (r.type == DNS_TYPE_CNAME && !*aliased) {
			size_t d = r.data;
			why = dns_name_read(p, r.data + r.data_len, &d, target);
			if (why)
				return why;
			*aliased = true;
		}
	}
	return NULL;
}

const char *dns_response_parse(const uint8_t *p, size_t len, uint16_t id, const char *name,
			       uint32_t *addr)
{
	char target[DNS_NAME_MAX + 1];
	size_t at;
	unsigned count;
	const char *why = dns_check_question(p, len, id, name, &at);

	if (why)
		return why;
	count = net_get16(p + 6);
	if (count > DNS_RECORDS_MAX)
		return "too many records";
	/* The question matched name, so it is a valid name of at most DNS_NAME_MAX. */
	{
		size_t q = DNS_HLEN;
		dns_name_read(p, len, &q, target);
	}
	for (unsigned hops = 0; hops <= DNS_CNAME_MAX; hops++) {
		bool found, aliased;
		why = dns_follow(p, len, at, count, target, addr, &found, &aliased);
		if (why)
			return why;
		if (found)
			return NULL;
		if (!aliased)
			return "no address for the name";
	}
	return "CNAME chain too long";
}
