/* Fuzzes the DNS reply reader (net/dns_message.c) with replies to a query for
 * "boot.example" (id 0x4242) and, from the input's first byte, for a shorter name. */
#include "fuzz.h"
#include <stdlib.h>

#include <ember/net/dns.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t addr = 0;
	uint8_t q[DNS_MESSAGE_MAX];

	dns_response_parse(data, size, 0x4242, "boot.example", &addr);
	dns_response_parse(data, size, size ? (uint16_t)(data[0] << 8 | data[0]) : 0, "a.b", &addr);
	if (!dns_query_build(q, sizeof(q), 0x4242, "boot.example"))
		abort();
	return 0;
}
