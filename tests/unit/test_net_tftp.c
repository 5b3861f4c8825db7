/* The TFTP client (net/tftp_client.c): the RRQ, OACK negotiation, data in order with
 * duplicates and the block number's wrap, ERROR packets, retransmission, and the hostile
 * packets it refuses (overlapping OACK values among them). */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include <ember/net/tftp.h>

#define SERVER 40000

static size_t pkt(uint8_t *p, uint16_t op, uint16_t n, const void *data, size_t len)
{
	net_put16(p, op);
	net_put16(p + 2, n);
	memcpy(p + 4, data, len);
	return 4 + len;
}

static enum tftp_event data(struct tftp_client *c, uint16_t block, size_t len)
{
	static uint8_t p[4 + 2048], fill[2048];

	memset(fill, (int)block, sizeof(fill));
	return tftp_client_input(c, SERVER, p, pkt(p, TFTP_DATA, block, fill, len));
}

/* An OACK of body (name\0value\0 pairs) of len bytes. */
static enum tftp_event oack(struct tftp_client *c, const char *body, size_t len)
{
	uint8_t p[256];

	net_put16(p, TFTP_OACK);
	memcpy(p + 2, body, len);
	return tftp_client_input(c, SERVER, p, 2 + len);
}

static bool sent_ack(const struct tftp_client *c, uint16_t block)
{
	return c->send && c->out_len == 4 && net_get16(c->out) == TFTP_ACK &&
	       net_get16(c->out + 2) == block;
}

static bool sent_error(const struct tftp_client *c, uint16_t code)
{
	return c->send && c->out_len > 4 && net_get16(c->out) == TFTP_ERROR &&
	       net_get16(c->out + 2) == code && c->out[c->out_len - 1] == 0;
}

TEST(net_tftp_read_request)
{
	static const char rrq[] = "\0\1pxe/boot.efi\0octet\0blksize\0"
				  "1468\0tsize\0"
				  "0";
	struct tftp_client c;
	char long_name[300];

	ASSERT(tftp_client_start(&c, "pxe/boot.efi"));
	EXPECT(c.send);
	ASSERT_EQ(c.out_len, sizeof(rrq));
	EXPECT(!memcmp(c.out, rrq, sizeof(rrq)));
	EXPECT(!tftp_client_start(&c, ""));
	EXPECT(!tftp_client_start(&c, NULL));
	EXPECT(!tftp_client_start(&c, "a\nb"));
	memset(long_name, 'a', sizeof(long_name));
	long_name[TFTP_NAME_MAX] = 0;
	EXPECT(tftp_client_start(&c, long_name));
	long_name[TFTP_NAME_MAX] = 'a';
	long_name[TFTP_NAME_MAX + 1] = 0;
	EXPECT(!tftp_client_start(&c, long_name));
}

TEST(net_tftp_oack_then_data_with_a_duplicate)
{
	static const char opts[] = "blksize\0"
				   "1024\0tsize\0"
				   "3000";
	struct tftp_client c;

	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(oack(&c, opts, sizeof(opts)), TFTP_EV_OPTIONS);
	EXPECT_EQ(c.blksize, 1024);
	EXPECT(c.has_tsize && c.tsize == 3000);
	EXPECT(sent_ack(&c, 0));
	ASSERT_EQ(data(&c, 1, 1024), TFTP_EV_DATA);
	EXPECT(c.offset == 0 && c.data_len == 1024 && c.data[0] == 1);
	EXPECT(sent_ack(&c, 1));
	/* Block 1 again (our ACK was lost): ACKed again, not delivered twice. */
	EXPECT_EQ(data(&c, 1, 1024), TFTP_EV_NONE);
	EXPECT(sent_ack(&c, 1));
	/* A block from the future is not ours to take, nor to ACK. */
	EXPECT_EQ(data(&c, 3, 952), TFTP_EV_NONE);
	EXPECT(!c.send);
	ASSERT_EQ(data(&c, 2, 1024), TFTP_EV_DATA);
	EXPECT_EQ(c.offset, 1024);
	ASSERT_EQ(data(&c, 3, 952), TFTP_EV_DONE);
	EXPECT_EQ(c.offset, 2048);
	EXPECT(sent_ack(&c, 3));
	EXPECT_EQ(c.state, TFTP_DONE);
	/* After the end, nothing more is taken. */
	EXPECT_EQ(data(&c, 3, 952), TFTP_EV_NONE);
}

TEST(net_tftp_server_without_options)
{
	struct tftp_client c;

	ASSERT(tftp_client_start(&c, "f"));
	/* DATA 1 at once: the server ignored the options, so blocks are 512 bytes. */
	ASSERT_EQ(data(&c, 1, 512), TFTP_EV_DATA);
	EXPECT(!c.has_tsize);
	EXPECT_EQ(c.blksize, 512);
	ASSERT_EQ(data(&c, 2, 0), TFTP_EV_DONE);
	EXPECT_EQ(c.offset, 512);
	EXPECT_EQ(c.data_len, 0);
	/* The first answer fixed the server's port. */
	EXPECT_EQ(c.server_port, SERVER);
}

TEST(net_tftp_block_number_wraps)
{
	static const char opts[] = "blksize\0"
				   "8";
	struct tftp_client c;
	bool ok = true;

	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(oack(&c, opts, sizeof(opts)), TFTP_EV_OPTIONS);
	for (uint32_t i = 1; i <= 65535 && ok; i++)
		ok = data(&c, (uint16_t)i, 8) == TFTP_EV_DATA;
	ASSERT(ok);
	/* After 65535 comes 0, then 1: offsets keep growing. */
	EXPECT_EQ(data(&c, 1, 8), TFTP_EV_NONE);
	ASSERT_EQ(data(&c, 0, 8), TFTP_EV_DATA);
	EXPECT_EQ(c.offset, 65535ull * 8);
	EXPECT(sent_ack(&c, 0));
	ASSERT_EQ(data(&c, 1, 3), TFTP_EV_DONE);
	EXPECT_EQ(c.offset, 65536ull * 8);
}

TEST(net_tftp_error_packets_end_the_transfer)
{
	uint8_t p[64];
	struct tftp_client c;

	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(tftp_client_input(&c, SERVER, p, pkt(p, TFTP_ERROR, 1, "File not found", 15)),
		  TFTP_EV_FAILED);
	EXPECT_EQ(c.error_code, 1);
	EXPECT(!strcmp(c.error, "File not found"));
	EXPECT(!c.send); /* errors are not answered */
	/* An unterminated message with control characters: bounded and cleaned. */
	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(tftp_client_input(&c, SERVER, p, pkt(p, TFTP_ERROR, 2, "no\x1b[2J", 7)),
		  TFTP_EV_FAILED);
	EXPECT(!strcmp(c.error, "no?[2J"));
	ASSERT(tftp_client_start(&c, "f"));
	memset(p + 4, 'x', 60);
	ASSERT_EQ(tftp_client_input(&c, SERVER, p, 64), TFTP_EV_FAILED);
	EXPECT_EQ(strlen(c.error), 60);
}

TEST(net_tftp_retransmits_then_gives_up)
{
	struct tftp_client c;
	uint8_t rrq[TFTP_OUT_MAX];
	size_t n;

	ASSERT(tftp_client_start(&c, "f"));
	memcpy(rrq, c.out, n = c.out_len);
	c.send = false;
	EXPECT(tftp_client_timeout(&c, 3));
	EXPECT(c.send && c.out_len == n && !memcmp(c.out, rrq, n));
	EXPECT(tftp_client_timeout(&c, 3));
	EXPECT(!tftp_client_timeout(&c, 3));
	EXPECT_EQ(c.state, TFTP_FAILED);
	EXPECT(sent_error(&c, 0));
	/* Progress starts the count again: the ACK gets its own tries. */
	ASSERT(tftp_client_start(&c, "f"));
	EXPECT(tftp_client_timeout(&c, 3));
	ASSERT_EQ(data(&c, 1, 512), TFTP_EV_DATA);
	EXPECT(tftp_client_timeout(&c, 3));
	EXPECT(sent_ack(&c, 1));
	EXPECT(tftp_client_timeout(&c, 3));
	EXPECT(!tftp_client_timeout(&c, 3));
}

TEST(net_tftp_ignores_other_ports)
{
	uint8_t p[16];
	struct tftp_client c;

	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(data(&c, 1, 512), TFTP_EV_DATA);
	/* Another transfer ID: not ours, not even its ERROR. */
	EXPECT_EQ(tftp_client_input(&c, SERVER + 1, p, pkt(p, TFTP_ERROR, 0, "x", 2)),
		  TFTP_EV_NONE);
	EXPECT_EQ(c.state, TFTP_TRANSFERRING);
}

TEST(net_tftp_refuses_hostile_packets)
{
	static const struct {
		const char *what;
		const char body[48];
		size_t len;
	} bad_oacks[] = {
#define O(what, body) {what, body, sizeof(body)}
#define UNTERMINATED(what, body)                                                                   \
	{                                                                                          \
		what, body, sizeof(body) - 1                                                       \
	}
	    O("blksize twice (overlapping values)", "blksize\0"
						    "1024\0blksize\0"
						    "512"),
	    O("blksize twice, same value", "blksize\0"
					   "512\0blksize\0"
					   "512"),
	    O("tsize twice", "tsize\0"
			     "10\0tsize\0"
			     "20"),
	    O("tsize twice, names in other cases", "tsize\0"
						   "10\0TSIZE\0"
						   "10"),
	    O("blksize 7", "blksize\0"
			   "7"),
	    O("blksize above what was asked", "blksize\0"
					      "1469"),
	    O("blksize of 20 digits", "blksize\0"
				      "99999999999999999999"),
	    O("value not a number", "tsize\0"
				    "12a"),
	    O("empty value", "tsize\0"),
	    O("option not asked for", "timeout\0"
				      "5"),
	    O("empty name", "\0"
			    "5"),
	    UNTERMINATED("unterminated value", "tsize\0"
					       "12"),
	    UNTERMINATED("unterminated name", "tsize"),
#undef O
#undef UNTERMINATED
	};
	struct tftp_client c;
	uint8_t p[8];

	for (size_t i = 0; i < sizeof(bad_oacks) / sizeof(bad_oacks[0]); i++) {
		ASSERT(tftp_client_start(&c, "f"));
		if (!EXPECT(oack(&c, bad_oacks[i].body, bad_oacks[i].len) == TFTP_EV_FAILED &&
			    sent_error(&c, 8)))
			printf("    accepted: %s\n", bad_oacks[i].what);
	}
	/* Names are case-insensitive (RFC 2347). */
	ASSERT(tftp_client_start(&c, "f"));
	EXPECT_EQ(oack(&c,
		       "BlkSize\0"
		       "64",
		       11),
		  TFTP_EV_OPTIONS);
	/* An OACK once data flows. */
	EXPECT_EQ(oack(&c,
		       "tsize\0"
		       "1",
		       8),
		  TFTP_EV_FAILED);
	EXPECT(sent_error(&c, 4));
	/* DATA longer than the block size. */
	ASSERT(tftp_client_start(&c, "f"));
	EXPECT_EQ(data(&c, 1, 513), TFTP_EV_FAILED);
	EXPECT(sent_error(&c, 4));
	/* Shorter than any packet; an opcode a reader never gets. */
	ASSERT(tftp_client_start(&c, "f"));
	EXPECT_EQ(tftp_client_input(&c, SERVER, p, 3), TFTP_EV_FAILED);
	ASSERT(tftp_client_start(&c, "f"));
	EXPECT_EQ(tftp_client_input(&c, SERVER, p, pkt(p, TFTP_ACK, 1, "", 0)), TFTP_EV_FAILED);
	ASSERT(tftp_client_start(&c, "f"));
	EXPECT_EQ(tftp_client_input(&c, SERVER, p, pkt(p, 9, 1, "", 0)), TFTP_EV_FAILED);
}

TEST(net_tftp_data_must_agree_with_tsize)
{
	struct tftp_client c;

	/* More data than tsize said. */
	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(oack(&c,
		       "blksize\0"
		       "8\0tsize\0"
		       "10",
		       19),
		  TFTP_EV_OPTIONS);
	ASSERT_EQ(data(&c, 1, 8), TFTP_EV_DATA);
	EXPECT_EQ(data(&c, 2, 8), TFTP_EV_FAILED);
	EXPECT(sent_error(&c, 3));
	/* The last block ends before tsize. */
	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(oack(&c,
		       "blksize\0"
		       "8\0tsize\0"
		       "10",
		       19),
		  TFTP_EV_OPTIONS);
	ASSERT_EQ(data(&c, 1, 8), TFTP_EV_DATA);
	EXPECT_EQ(data(&c, 2, 1), TFTP_EV_FAILED);
	ASSERT(tftp_client_start(&c, "f"));
	ASSERT_EQ(oack(&c,
		       "blksize\0"
		       "8\0tsize\0"
		       "10",
		       19),
		  TFTP_EV_OPTIONS);
	ASSERT_EQ(data(&c, 1, 8), TFTP_EV_DATA);
	EXPECT_EQ(data(&c, 2, 2), TFTP_EV_DONE);
}
