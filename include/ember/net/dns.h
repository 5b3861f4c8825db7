/* DNS (RFC 1035) for A records: the query and the reading of the answer, CNAME chains
 * followed to a bounded depth. Pure: the caller sends the query over UDP to the server
 * DHCP named (option 6) and feeds in the reply. */
#ifndef EMBER_NET_DNS_H
#define EMBER_NET_DNS_H

#include <ember/net/net.h>

#define DNS_PORT 53
#define DNS_NAME_MAX 253 /* a name as text, without the final dot */
#define DNS_MESSAGE_MAX 512
#define DNS_CNAME_MAX 8	 /* aliases followed; a longer chain is refused */
#define DNS_JUMPS_MAX 16 /* compression pointers followed in one name */
#define DNS_RECORDS_MAX 64

/* Writes a recursive query for name's A record with id at buf; returns its length, or 0 for
 * a name that is empty, too long, has an empty or over-long label, or characters other than
 * letters, digits, '-' and '_'. A final dot is allowed. */
size_t dns_query_build(uint8_t *buf, size_t cap, uint16_t id, const char *name);

/* Reads the reply of len bytes to the query for name with id; on success sets *addr to an
 * address of name (following CNAME records). Returns why it is refused, NULL when accepted:
 * a short message, another id, not a reply, an opcode other than QUERY, truncation, an
 * error code (NXDOMAIN among them), a question that is not the one asked, a name that runs
 * past the message, loops or jumps too often, a record past the message, an A record whose
 * data is not 4 bytes, more than DNS_RECORDS_MAX records, a CNAME chain longer than
 * DNS_CNAME_MAX, and no address for the name. */
const char *dns_response_parse(const uint8_t *p, size_t len, uint16_t id, const char *name,
			       uint32_t *addr);

#endif
