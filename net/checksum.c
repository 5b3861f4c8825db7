/* The Internet checksum (RFC 1071) that IPv4, UDP and ICMP share. */
#include <ember/net/net.h>

/* Folds a wide ones' complement sum to 16 bits (RFC 1071 4.1: carries wrap around). */
static uint32_t fold16(uint64_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint32_t)sum;
}

uint32_t net_sum(const void *data, size_t len, uint32_t sum)
{
	const uint8_t *p = data;
	uint64_t acc = 0;
	uint32_t native;

	/* RFC 1071 2(B): the sum does not depend on byte order, so 32-bit words are added in
	 * the machine's order into 64 bits (no carry is lost before 2^32 words) and the folded
	 * result is swapped into network order at the end. Four times fewer steps than
	 * 16-bit big-endian words: this sum runs over every byte a download receives. */
	for (; len >= 4; p += 4, len -= 4) {
		uint32_t w;
		__builtin_memcpy(&w, p, 4);
		acc += w;
	}
	if (len >= 2) {
		uint16_t h;
		__builtin_memcpy(&h, p, 2);
		acc += h;
		p += 2;
		len -= 2;
	}
	native = fold16(acc);
	/* On a little-endian machine the native sum is byte-swapped. */
	if (*(const uint8_t *)&(const uint16_t){1})
		native = (native >> 8 | native << 8) & 0xffff;
	if (len) /* an odd last byte is the high half of a word padded with zero */
		native += (uint32_t)p[0] << 8;
	return fold16((uint64_t)native + sum);
}

uint16_t net_checksum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}
