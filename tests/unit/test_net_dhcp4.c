/* The DHCPv4 client (net/dhcp4_*.c): the messages it sends, the replies it takes (options
 * 1, 3, 6, 51, 52, 53, 54, 60, 66, 67) and the hostile ones it refuses, and the exchange. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/test.h"
#include "net_packets.h"
#include <ember/net/dhcp4.h>

#define XID 0x1234abcd

static const uint8_t mac[6] = {0x52, 0x54, 0, 0x12, 0x34, 0x56};
static const uint8_t uuid[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

/* The option code in a message we sent, or NULL; *len its length. */
static const uint8_t *find_option(const uint8_t *m, size_t n, uint8_t code, size_t *len)
{
	for (size_t at = 240; at + 1 < n && m[at] != 255;) {
		if (m[at] == 0) {
			at++;
			continue;
		}
		if (m[at] == code) {
			*len = m[at + 1];
			return m + at + 2;
		}
		at += 2 + (size_t)m[at + 1];
	}
	return NULL;
}

TEST(net_dhcp4_discover_carries_the_pxe_options)
{
	struct dhcp4_request r = {.type = DHCP4_DISCOVER, .xid = XID, .secs = 3, .uuid = uuid};
	uint8_t m[DHCP4_MESSAGE_MAX];
	const uint8_t *v;
	size_t n, len = 0;

	memcpy(r.mac, mac, 6);
	EXPECT_EQ(dhcp4_build(m, DHCP4_MESSAGE_MAX - 1, &r), 0);
	n = dhcp4_build(m, sizeof(m), &r);
	ASSERT(n >= 300 && n <= DHCP4_MESSAGE_MAX);
	EXPECT_EQ(m[0], 1);
	EXPECT_EQ(net_get32(m + 4), XID);
	EXPECT_EQ(net_get16(m + 8), 3);
	EXPECT_EQ(net_get16(m + 10), 0x8000);
	EXPECT(!memcmp(m + 28, mac, 6));
	EXPECT_EQ(net_get32(m + 236), 0x63825363);
	v = find_option(m, n, 53, &len);
	EXPECT(v && len == 1 && v[0] == DHCP4_DISCOVER);
	v = find_option(m, n, 93, &len);
	EXPECT(v && len == 2 && net_get16(v) == 0x0007);
	v = find_option(m, n, 94, &len);
	EXPECT(v && len == 3 && v[0] == 1 && v[1] == 3 && v[2] == 0);
	v = find_option(m, n, 97, &len);
	EXPECT(v && len == 17 && v[0] == 0 && !memcmp(v + 1, uuid, 16));
	v = find_option(m, n, 60, &len);
	EXPECT(v && len == 32 && !memcmp(v, "PXEClient:Arch:00007:UNDI:003000", 32));
	v = find_option(m, n, 55, &len);
	EXPECT(v && memchr(v, 66, len) && memchr(v, 67, len));
	EXPECT(find_option(m, n, 50, &len) == NULL);
	/* The HTTP boot client names itself so, with its own architecture type. */
	r.http = true;
	r.uuid = NULL;
	n = dhcp4_build(m, sizeof(m), &r);
	v = find_option(m, n, 60, &len);
	EXPECT(v && len == 33 && !memcmp(v, "HTTPClient:Arch:00016:UNDI:003001", 33));
	v = find_option(m, n, 93, &len);
	EXPECT(v && len == 2 && net_get16(v) == 0x0010);
	v = find_option(m, n, 97, &len);
	EXPECT(v && len == 17 && v[1] == 0 && v[16] == 0);
}

static const uint8_t offer_opts[] = {
    1,	 4,   255, 255, 255, 0,			    /* subnet */
    3,	 8,   10,  0,	2,   2,	  10,  0,   2,	 3, /* routers: the first is taken */
    6,	 4,   10,  0,	2,   3,			    /* DNS */
    51,	 4,   0,   1,	81,  128,		    /* lease 86400 s */
    54,	 4,   10,  0,	2,   2,			    /* server identifier */
    60,	 9,   'P', 'X', 'E', 'C', 'l', 'i', 'e', 'n', 't', 66,	8,   '1', '0', '.', '0',
    '.', '0', '.', '9', 67,  10,  'b', 'o', 'o', 't', 'x', '6', '4', '.', 'e', 0, /* trailing NUL */
    255};

static const char *parse(const uint8_t *opts, size_t len, const char *file, struct dhcp4_reply *out)
{
	uint8_t m[576];
	struct test_dhcp_reply r = {DHCP4_OFFER, XID, 0x0a00020f, 0x0a000202, mac, file, opts, len};

	return dhcp4_parse(m, test_dhcp_reply(m, &r), XID, mac, out);
}

TEST(net_dhcp4_parses_an_offer)
{
	struct dhcp4_reply r;

	ASSERT(parse(offer_opts, sizeof(offer_opts), "ignored.efi", &r) == NULL);
	EXPECT_EQ(r.type, DHCP4_OFFER);
	EXPECT_EQ(r.yiaddr, 0x0a00020f);
	EXPECT_EQ(r.siaddr, 0x0a000202);
	EXPECT_EQ(r.subnet, 0xffffff00);
	EXPECT_EQ(r.router, 0x0a000202);
	EXPECT_EQ(r.dns, 0x0a000203);
	EXPECT_EQ(r.lease, 86400);
	EXPECT_EQ(r.server_id, 0x0a000202);
	EXPECT(r.pxe_class && !r.http_class);
	EXPECT(!strcmp(r.tftp_server, "10.0.0.9"));
	/* Option 67 wins over the file field. */
	EXPECT(!strcmp(r.boot_file, "bootx64.e"));
}

TEST(net_dhcp4_boot_file_from_the_file_field)
{
	static const uint8_t opts[] = {54, 4, 10, 0, 2, 2, 255};
	struct dhcp4_reply r;

	ASSERT(parse(opts, sizeof(opts), "pxe/grubx64.efi", &r) == NULL);
	EXPECT(!strcmp(r.boot_file, "pxe/grubx64.efi"));
	EXPECT(!r.tftp_server[0] && !r.pxe_class && !r.subnet);
}

TEST(net_dhcp4_overload_reads_file_and_sname_as_options)
{
	static const uint8_t opts[] = {52, 1, 3, 255};
	uint8_t m[576], area[128] = {67, 5, 'a', '.', 'e', 'f', 'i', 0, 0, 255, 'x'};
	struct test_dhcp_reply t = {DHCP4_ACK, XID, 1, 2, mac, NULL, opts, sizeof(opts), area};
	struct dhcp4_reply r;
	size_t n = test_dhcp_reply(m, &t);

	/* sname (44, 64 bytes) holds option 66 and its end. */
	memcpy(m + 44,
	       "\x42\x07"
	       "1.2.3.4"
	       "\xff",
	       10);
	ASSERT(dhcp4_parse(m, n, XID, mac, &r) == NULL);
	EXPECT(!strcmp(r.boot_file, "a.efi"));
	EXPECT(!strcmp(r.tftp_server, "1.2.3.4"));
	/* The sname area without its end option is refused. */
	memset(m + 44, 0, 64);
	m[44] = 12;
	m[45] = 62;
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
	/* Overload 1: the file field is options, never a name, even when they give none. */
	m[245] = 1; /* after 53 (240..242) comes 52 (243..245) */
	memset(m + 108, 0, 128);
	m[108] = 255;
	ASSERT(dhcp4_parse(m, n, XID, mac, &r) == NULL);
	EXPECT(!r.boot_file[0]);
}

TEST(net_dhcp4_refuses_hostile_options)
{
	static const struct {
		const char *what;
		uint8_t opts[12];
		size_t len;
		const char *why; /* the parser's reason: refused for this, not by chance */
	} bad[] = {
	    {"length past the end", {67, 200, 'a', 'b', 255}, 5, "option past the end of its area"},
	    {"code without length", {54}, 1, "option past the end of its area"},
	    {"no end option", {54, 4, 10, 0, 2, 2}, 6, "no end option"},
	    {"zero-length boot file", {67, 0, 255}, 3, "bad boot file name"},
	    {"zero-length server name", {66, 0, 255}, 3, "bad TFTP server name"},
	    {"zero-length vendor class", {60, 0, 255}, 3, "empty vendor class"},
	    {"server id of 3 bytes", {54, 3, 10, 0, 2, 255}, 6, "address option of a wrong length"},
	    {"router list not of whole addresses",
	     {3, 6, 1, 2, 3, 4, 5, 6, 255},
	     9,
	     "address option of a wrong length"},
	    {"subnet of 8 bytes",
	     {1, 8, 1, 2, 3, 4, 5, 6, 7, 8, 255},
	     11,
	     "address option of a wrong length"},
	    {"lease of 0 bytes", {51, 0, 255}, 3, "address option of a wrong length"},
	    {"repeated message type", {53, 1, 2, 255}, 4, "option repeated"},
	    {"repeated option", {54, 4, 1, 1, 1, 1, 54, 4, 2, 2, 2, 2}, 12, "option repeated"},
	    {"control character in the name",
	     {67, 3, 'a', '\n', 'b', 255},
	     6,
	     "bad boot file name"},
	    {"NUL inside the name", {67, 3, 'a', 0, 'b', 255}, 6, "bad boot file name"},
	    {"overload 4", {52, 1, 4, 255}, 4, "bad overload"},
	    {"overload of 0 bytes", {52, 0, 255}, 3, "bad overload"},
	};
	struct dhcp4_reply r;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *why = parse(bad[i].opts, bad[i].len, NULL, &r);
		if (!EXPECT(why && !strcmp(why, bad[i].why)))
			printf("    %s: %s\n", bad[i].what, why ? why : "accepted");
	}
	/* Unknown options of any length, zero included, are skipped. */
	static const uint8_t fine[] = {0, 0, 250, 0, 43, 3, 1, 2, 3, 255, 99};
	EXPECT(parse(fine, sizeof(fine), NULL, &r) == NULL);
}

TEST(net_dhcp4_refuses_foreign_and_broken_messages)
{
	static const uint8_t opts[] = {255};
	uint8_t m[576], other[6] = {2, 0, 0, 0, 0, 1};
	struct test_dhcp_reply t = {DHCP4_OFFER, XID, 1, 2, mac, NULL, opts, 1};
	struct dhcp4_reply r;
	size_t n = test_dhcp_reply(m, &t);

	ASSERT(dhcp4_parse(m, n, XID, mac, &r) == NULL);
	EXPECT(dhcp4_parse(m, n, XID + 1, mac, &r) != NULL);
	EXPECT(dhcp4_parse(m, n, XID, other, &r) != NULL);
	EXPECT(dhcp4_parse(m, 239, XID, mac, &r) != NULL);
	EXPECT(dhcp4_parse(NULL, n, XID, mac, &r) != NULL);
	/* 240 bytes: the options area is empty, so it has no end option. */
	EXPECT(dhcp4_parse(m, 240, XID, mac, &r) != NULL);
	m[0] = 1;
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
	m[0] = 2;
	m[2] = 16;
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
	m[2] = 6;
	m[239] = 0;
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
	t.type = 0;
	n = test_dhcp_reply(m, &t);
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
	/* Overload inside the overloaded file field. */
	uint8_t area[128] = {52, 1, 1, 255};
	static const uint8_t ov[] = {52, 1, 1, 255};
	struct test_dhcp_reply t2 = {DHCP4_OFFER, XID, 1, 2, mac, NULL, ov, 4, area};
	n = test_dhcp_reply(m, &t2);
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
	/* A file field with a control character is refused, not cut. */
	t.type = DHCP4_OFFER;
	t.file = "bad\tname";
	n = test_dhcp_reply(m, &t);
	EXPECT(dhcp4_parse(m, n, XID, mac, &r) != NULL);
}

static size_t reply(uint8_t *m, uint8_t type, uint32_t yiaddr, const uint8_t *opts, size_t len,
		    const char *file)
{
	struct test_dhcp_reply t = {type, XID, yiaddr, 0x0a000202, mac, file, opts, len};

	return test_dhcp_reply(m, &t);
}

TEST(net_dhcp4_client_exchange)
{
	static const uint8_t sid[] = {54, 4, 10, 0, 2, 2, 255};
	static const uint8_t other_sid[] = {54, 4, 10, 0, 2, 9, 255};
	static const uint8_t no_sid[] = {255};
	struct dhcp4_client c;
	uint8_t m[576], out[DHCP4_MESSAGE_MAX];
	const char *why;
	const uint8_t *v;
	size_t n, len;

	dhcp4_client_init(&c, mac, uuid, XID, false);
	n = dhcp4_client_message(&c, out, sizeof(out), 0);
	v = find_option(out, n, 53, &len);
	EXPECT(v && v[0] == DHCP4_DISCOVER);
	/* An ACK before any offer, and an offer without a server id, are ignored. */
	EXPECT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_ACK, 0x0a00020f, sid, 7, NULL), &why),
		  DHCP4_IGNORED);
	EXPECT_EQ(
	    dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0x0a00020f, no_sid, 1, NULL), &why),
	    DHCP4_IGNORED);
	EXPECT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0, sid, 7, NULL), &why),
		  DHCP4_IGNORED);
	ASSERT_EQ(
	    dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0x0a00020f, sid, 7, "boot.efi"), &why),
	    DHCP4_OFFERED);
	n = dhcp4_client_message(&c, out, sizeof(out), 1);
	v = find_option(out, n, 53, &len);
	EXPECT(v && v[0] == DHCP4_REQUEST);
	v = find_option(out, n, 50, &len);
	EXPECT(v && len == 4 && net_get32(v) == 0x0a00020f);
	v = find_option(out, n, 54, &len);
	EXPECT(v && len == 4 && net_get32(v) == 0x0a000202);
	/* A second offer is not what REQUESTING waits for; another server's ACK neither. */
	EXPECT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0x0a000210, sid, 7, NULL), &why),
		  DHCP4_IGNORED);
	EXPECT_EQ(
	    dhcp4_client_input(&c, m, reply(m, DHCP4_ACK, 0x0a00020f, other_sid, 7, NULL), &why),
	    DHCP4_IGNORED);
	EXPECT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_ACK, 0x0a000210, sid, 7, NULL), &why),
		  DHCP4_IGNORED);
	/* A NAK sends the client back to DISCOVER. */
	EXPECT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_NAK, 0, sid, 7, NULL), &why),
		  DHCP4_NAKED);
	EXPECT_EQ(c.state, DHCP4_SELECTING);
	ASSERT_EQ(
	    dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0x0a00020f, sid, 7, "boot.efi"), &why),
	    DHCP4_OFFERED);
	/* The ACK lacks the boot file: the offer's is kept. */
	ASSERT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_ACK, 0x0a00020f, sid, 7, NULL), &why),
		  DHCP4_BOUND_NOW);
	EXPECT_EQ(c.state, DHCP4_BOUND);
	EXPECT(!strcmp(c.lease.boot_file, "boot.efi"));
	EXPECT_EQ(c.lease.yiaddr, 0x0a00020f);
	EXPECT_EQ(c.lease.siaddr, 0x0a000202);
}

TEST(net_dhcp4_client_remembers_a_proxy_offer)
{
	static const uint8_t sid[] = {54, 4, 10, 0, 2, 2, 255};
	static const uint8_t proxy[] = {54,  4,	  10,  0,   2,	 9,   60,  9,	'P',
					'X', 'E', 'C', 'l', 'i', 'e', 'n', 't', 67,
					5,   'p', '.', 'e', 'f', 'i', 255};
	static const uint8_t not_pxe[] = {54, 4, 10, 0, 2, 9, 67, 5, 'p', '.', 'e', 'f', 'i', 255};
	struct dhcp4_client c;
	uint8_t m[576];
	const char *why;

	dhcp4_client_init(&c, mac, NULL, XID, false);
	EXPECT(dhcp4_client_boot(&c) == NULL);
	/* Without PXEClient, an offer of no address is no proxy offer. */
	EXPECT_EQ(dhcp4_client_input(
		      &c, m, reply(m, DHCP4_OFFER, 0, not_pxe, sizeof(not_pxe), NULL), &why),
		  DHCP4_IGNORED);
	ASSERT_EQ(
	    dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0, proxy, sizeof(proxy), NULL), &why),
	    DHCP4_PROXY);
	EXPECT_EQ(c.state, DHCP4_SELECTING);
	EXPECT_EQ(
	    dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0, proxy, sizeof(proxy), NULL), &why),
	    DHCP4_IGNORED);
	ASSERT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0x0a00020f, sid, 7, NULL), &why),
		  DHCP4_OFFERED);
	ASSERT_EQ(dhcp4_client_input(&c, m, reply(m, DHCP4_ACK, 0x0a00020f, sid, 7, NULL), &why),
		  DHCP4_BOUND_NOW);
	/* The lease has no boot file: the proxy's is the boot. */
	ASSERT(dhcp4_client_boot(&c) == &c.proxy);
	EXPECT(!strcmp(c.proxy.boot_file, "p.efi"));
	EXPECT_EQ(c.proxy.server_id, 0x0a000209);
	/* A lease with its own boot file wins over the proxy. */
	dhcp4_client_init(&c, mac, NULL, XID, false);
	dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0, proxy, sizeof(proxy), NULL), &why);
	dhcp4_client_input(&c, m, reply(m, DHCP4_OFFER, 0x0a00020f, sid, 7, "own.efi"), &why);
	dhcp4_client_input(&c, m, reply(m, DHCP4_ACK, 0x0a00020f, sid, 7, NULL), &why);
	ASSERT(dhcp4_client_boot(&c) == &c.lease);
	EXPECT(!strcmp(c.lease.boot_file, "own.efi"));
}
