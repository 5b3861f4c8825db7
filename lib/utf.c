/* Conversions between UTF-8 (the host's text) and UCS-2 (UEFI's text). */
#include <ember/lib/str.h>

#define REPLACEMENT_CHARACTER 0xfffd

/* Decodes one UTF-8 sequence at src; returns its length (at least 1) and the code point. */
static size_t utf8_decode(const unsigned char *src, size_t len, uint32_t *cp)
{
	unsigned char c = src[0];
	size_t need;
	uint32_t v, min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if ((c & 0xe0) == 0xc0)
		need = 1, v = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		need = 2, v = c & 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		need = 3, v = c & 0x07, min = 0x10000;
	else
		goto invalid;
	if (need >= len)
		goto invalid;
	for (size_t i = 1; i <= need; i++) {
		if ((src[i] & 0xc0) != 0x80)
			goto invalid;
		v = (v << 6) | (src[i] & 0x3f);
	}
	if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff))
		goto invalid;
	*cp = v;
	return need + 1;
invalid:
	*cp = REPLACEMENT_CHARACTER;
	return 1;
}

size_t utf8_to_ucs2(CHAR16 *dst, size_t dst_units, const char *src, size_t src_len)
{
	const unsigned char *s = (const unsigned char *)src;
	size_t out = 0;

	if (dst_units == 0)
		return 0;
	while (src_len && out + 1 < dst_units) {
		uint32_t cp;
		size_t used = utf8_decode(s, src_len, &cp);

		dst[out++] = cp > 0xffff ? REPLACEMENT_CHARACTER : (CHAR16)cp;
		s += used;
		src_len -= used;
	}
	dst[out] = 0;
	return out;
}

size_t ucs2_to_utf8(char *dst, size_t dst_size, const CHAR16 *src, size_t src_units)
{
	size_t out = 0;

	if (dst_size == 0)
		return 0;
	for (size_t i = 0; i < src_units && src[i]; i++) {
		uint32_t c = src[i];
		unsigned char enc[3];
		size_t n;

		if (c >= 0xd800 && c <= 0xdfff)
			c = REPLACEMENT_CHARACTER; /* UCS-2 has no surrogate pairs */
		if (c < 0x80) {
			enc[0] = (unsigned char)c;
			n = 1;
		} else if (c < 0x800) {
			enc[0] = (unsigned char)(0xc0 | (c >> 6));
			enc[1] = (unsigned char)(0x80 | (c & 0x3f));
			n = 2;
		} else {
			enc[0] = (unsigned char)(0xe0 | (c >> 12));
			enc[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3f));
			enc[2] = (unsigned char)(0x80 | (c & 0x3f));
			n = 3;
		}
		if (out + n + 1 > dst_size)
			break;
		for (size_t k = 0; k < n; k++)
			dst[out++] = (char)enc[k];
	}
	dst[out] = 0;
	return out;
}
