/* What the network tests send to Ember's stack, written without it: DHCP replies of a
 * server, byte by byte, with whatever options (hostile ones too) a test gives. */
#ifndef EMBER_TEST_NET_PACKETS_H
#define EMBER_TEST_NET_PACKETS_H

#include <stddef.h>
#include <stdint.h>

struct test_dhcp_reply {
	uint8_t type; /* option 53 first, 0: none */
	uint32_t xid, yiaddr, siaddr;
	const uint8_t *mac;
	const char *file;    /* the file field, or NULL */
	const uint8_t *opts; /* raw options after 53 (the end option is the caller's) */
	size_t opts_len;
	const uint8_t *file_area; /* raw 128 bytes for the file field, or NULL */
};

/* Writes the BOOTREPLY r at buf (at least 576 bytes); returns its length. */
size_t test_dhcp_reply(uint8_t *buf, const struct test_dhcp_reply *r);

#endif
