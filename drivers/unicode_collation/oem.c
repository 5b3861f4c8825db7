/* FAT 8.3 names and the OEM character set, code page 437 (UEFI 2.10, 19.1.5 FatToStr and
 * 19.1.6 StrToFat). */
#include "collation.h"
#include <ember/lib/str.h>

/* Code page 437, bytes 0x80 - 0xff. */
static const CHAR16 cp437_high[128] = {
    0x00c7, 0x00fc, 0x00e9, 0x00e2, 0x00e4, 0x00e0, 0x00e5, 0x00e7, /* 0x80 */
    0x00ea, 0x00eb, 0x00e8, 0x00ef, 0x00ee, 0x00ec, 0x00c4, 0x00c5,
    0x00c9, 0x00e6, 0x00c6, 0x00f4, 0x00f6, 0x00f2, 0x00fb, 0x00f9, /* 0x90 */
    0x00ff, 0x00d6, 0x00dc, 0x00a2, 0x00a3, 0x00a5, 0x20a7, 0x0192,
    0x00e1, 0x00ed, 0x00f3, 0x00fa, 0x00f1, 0x00d1, 0x00aa, 0x00ba, /* 0xa0 */
    0x00bf, 0x2310, 0x00ac, 0x00bd, 0x00bc, 0x00a1, 0x00ab, 0x00bb,
    0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556, /* 0xb0 */
    0x2555, 0x2563, 0x2551, 0x2557, 0x255d, 0x255c, 0x255b, 0x2510,
    0x2514, 0x2534, 0x252c, 0x251c, 0x2500, 0x253c, 0x255e, 0x255f, /* 0xc0 */
    0x255a, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256c, 0x2567,
    0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256b, /* 0xd0 */
    0x256a, 0x2518, 0x250c, 0x2588, 0x2584, 0x258c, 0x2590, 0x2580,
    0x03b1, 0x00df, 0x0393, 0x03c0, 0x03a3, 0x03c3, 0x00b5, 0x03c4, /* 0xe0 */
    0x03a6, 0x0398, 0x03a9, 0x03b4, 0x221e, 0x03c6, 0x03b5, 0x2229,
    0x2261, 0x00b1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00f7, 0x2248, /* 0xf0 */
    0x00b0, 0x2219, 0x00b7, 0x221a, 0x207f, 0x00b2, 0x25a0, 0x00a0,
};

/* Characters FAT does not allow in 8.3 names (besides control characters). */
static const CHAR16 fat_forbidden[] = u"\"*+,/:;<=>?[\\]|";

CHAR16 collation_oem_to_unicode(UINT8 byte)
{
	return byte < 0x80 ? byte : cp437_high[byte - 0x80];
}

bool collation_oem_from_unicode(CHAR16 c, UINT8 *byte)
{
	if (c < 0x80) {
		*byte = (UINT8)c;
		return true;
	}
	for (UINT32 i = 0; i < ARRAY_SIZE(cp437_high); i++) {
		if (cp437_high[i] == c) {
			*byte = (UINT8)(0x80 + i);
			return true;
		}
	}
	return false;
}

void collation_fat_to_str(UINTN fat_size, const CHAR8 *fat, CHAR16 *string)
{
	UINTN i;

	for (i = 0; i < fat_size && fat[i]; i++)
		string[i] = collation_oem_to_unicode((UINT8)fat[i]);
	string[i] = 0;
}

/* The OEM byte of one character for an 8.3 name; false when it must become '_'. */
static bool fat_char(CHAR16 c, UINT8 *byte)
{
	if (c < 0x20 || c == 0x7f || str16_chr(fat_forbidden, c))
		return false;
	/* A letter whose capital is not in the code page has no 8.3 form (as on Windows). */
	return collation_oem_from_unicode(collation_upper(c), byte);
}

bool collation_str_to_fat(const CHAR16 *string, UINTN fat_size, CHAR8 *fat)
{
	bool substituted = false;
	UINTN n = 0;

	for (; *string && n < fat_size; string++) {
		UINT8 byte;

		if (*string == u'.' || *string == u' ')
			continue;
		if (!fat_char(*string, &byte)) {
			byte = '_';
			substituted = true;
		}
		fat[n++] = (CHAR8)byte;
	}
	if (n < fat_size)
		fat[n] = 0;
	return substituted;
}
