/* The Internet checksum (RFC 1071) that IPv4, UDP and ICMP share. */
#include <ember/net/net.h>

uint32_t net_sum(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;

	for (; len >= 2; p += 2, len -= 2) {
		sum += net_get16(p);
		/* Fold as we go, so no length overflows the 32-bit sum. */
		sum = (sum & 0xffff) + (sum >> 16);
	}
	if (len)
		sum += (uint32_t)p[0] << 8;
	return sum;
}

uint16_t net_checksum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}
