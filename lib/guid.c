/* EFI_GUID comparison and text form (registry format, UEFI 2.10 appendix A). */
#include <ember/lib/str.h>

bool guid_eq(const EFI_GUID *a, const EFI_GUID *b)
{
	/* Two 8-byte loads instead of a byte loop: the protocol database compares GUIDs
	 * thousands of times at boot. memcpy, since a GUID need not be 8-byte aligned. */
	uint64_t x[2], y[2];

	__builtin_memcpy(x, a, sizeof(x));
	__builtin_memcpy(y, b, sizeof(y));
	return ((x[0] ^ y[0]) | (x[1] ^ y[1])) == 0;
}

static void put_hex(char *out, uint64_t v, int digits)
{
	static const char hex[] = "0123456789ABCDEF";

	for (int i = digits - 1; i >= 0; i--, v >>= 4)
		out[i] = hex[v & 15];
}

void guid_to_str(char out[37], const EFI_GUID *g)
{
	put_hex(out, g->Data1, 8);
	out[8] = '-';
	put_hex(out + 9, g->Data2, 4);
	out[13] = '-';
	put_hex(out + 14, g->Data3, 4);
	out[18] = '-';
	put_hex(out + 19, g->Data4[0], 2);
	put_hex(out + 21, g->Data4[1], 2);
	out[23] = '-';
	for (int i = 0; i < 6; i++)
		put_hex(out + 24 + 2 * i, g->Data4[2 + i], 2);
	out[36] = 0;
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool parse_hex(const char *s, int digits, uint64_t *v)
{
	*v = 0;
	for (int i = 0; i < digits; i++) {
		int d = hex_value(s[i]);
		if (d < 0)
			return false;
		*v = (*v << 4) | (uint64_t)d;
	}
	return true;
}

bool guid_from_str(EFI_GUID *g, const char *s, size_t len)
{
	uint64_t v;

	if (len != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-')
		return false;
	if (!parse_hex(s, 8, &v))
		return false;
	g->Data1 = (UINT32)v;
	if (!parse_hex(s + 9, 4, &v))
		return false;
	g->Data2 = (UINT16)v;
	if (!parse_hex(s + 14, 4, &v))
		return false;
	g->Data3 = (UINT16)v;
	for (int i = 0; i < 8; i++) {
		const char *p = i < 2 ? s + 19 + 2 * i : s + 24 + 2 * (i - 2);
		if (!parse_hex(p, 2, &v))
			return false;
		g->Data4[i] = (UINT8)v;
	}
	return true;
}
