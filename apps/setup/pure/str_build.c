/* An English string package (UEFI 2.10, 33.3.6): the header with language "en-US", one
 * UCS-2 block a string (ids from 1: string 1 is the language's name), the END block. */
#include "ifr_build.h"
#include <ember/lib/str.h>

#define HEADER_SIZE (46 + 6) /* the fixed part and "en-US" */

static void put(struct strb *s, const void *data, size_t n)
{
	if (s->full || n > s->room - s->len) {
		s->full = true;
		return;
	}
	mem_copy(s->buf + s->len, data, n);
	s->len += n;
}

static void u16(struct strb *s, UINT16 v)
{
	put(s, &v, 2);
}

/* Starts the package: the header (its length written by strb_done), then "English". */
void strb_init(struct strb *s, UINT8 *buf, size_t room)
{
	UINT32 hdr_size = HEADER_SIZE, info = HEADER_SIZE;

	s->buf = buf, s->len = 0, s->room = room, s->full = false, s->next = 1;
	put(s, &hdr_size, 4), put(s, &hdr_size, 4), put(s, &info, 4);
	for (int i = 0; i < 16; i++)
		u16(s, 0); /* LanguageWindow */
	u16(s, 1);	   /* LanguageName: string 1 */
	put(s, "en-US", 6);
	strb_add(s, "English");
}

static EFI_STRING_ID added(struct strb *s)
{
	return s->full ? 0 : s->next++;
}

/* Adds an ASCII string. */
EFI_STRING_ID strb_add(struct strb *s, const char *text)
{
	put(s, &(UINT8){EFI_HII_SIBT_STRING_UCS2}, 1);
	for (; *text; text++)
		u16(s, (UINT8)*text);
	u16(s, 0);
	return added(s);
}

/* Adds a UCS-2 string. */
EFI_STRING_ID strb_add16(struct strb *s, const CHAR16 *text)
{
	put(s, &(UINT8){EFI_HII_SIBT_STRING_UCS2}, 1);
	put(s, text, 2 * (str16_len(text) + 1));
	return added(s);
}

/* Ends the blocks and writes the header's length and type. */
size_t strb_done(struct strb *s)
{
	UINT32 header;

	put(s, &(UINT8){EFI_HII_SIBT_END}, 1);
	if (s->full || s->len > 0xffffff)
		return 0;
	header = (UINT32)s->len | (UINT32)EFI_HII_PACKAGE_STRINGS << 24;
	mem_copy(s->buf, &header, 4);
	return s->len;
}
