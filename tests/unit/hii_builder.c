/* Package lists for the HII tests, written byte by byte as a driver's build would. */
#include <string.h>
#include "hii_builder.h"
#include <efi/protocol/hii_package_list.h>

/* Starts a list. */
void hb_begin(struct hii_builder *b, const EFI_GUID *guid)
{
	memcpy(b->buf, guid, sizeof(*guid));
	b->len = sizeof(EFI_HII_PACKAGE_LIST_HEADER);
}

/* Appends one package. */
void hb_package(struct hii_builder *b, UINT8 type, const void *body, UINT32 size)
{
	UINT32 word = (size + 4) | (UINT32)type << 24;

	memcpy(b->buf + b->len, &word, 4);
	if (size)
		memcpy(b->buf + b->len + 4, body, size);
	b->len += size + 4;
}

/* Appends a string package. */
void hb_strings(struct hii_builder *b, const char *language, const UINT8 *blocks, UINT32 size)
{
	UINT8 body[1024] = {0};
	UINT32 hdr = EFI_HII_STRING_PACKAGE_FIXED_SIZE + (UINT32)strlen(language) + 1;

	memcpy(body + EFI_HII_STRING_PACKAGE_HDR_SIZE_OFFSET - 4, &hdr, 4);
	memcpy(body + EFI_HII_STRING_PACKAGE_INFO_OFFSET - 4, &hdr, 4);
	memcpy(body + EFI_HII_STRING_PACKAGE_FIXED_SIZE - 4, language, strlen(language));
	memcpy(body + hdr - 4, blocks, size);
	hb_package(b, EFI_HII_PACKAGE_STRINGS, body, hdr - 4 + size);
}

/* Ends the list. */
void hb_end(struct hii_builder *b)
{
	hb_package(b, EFI_HII_PACKAGE_END, NULL, 0);
	memcpy(b->buf + 16, &b->len, 4);
}

/* A UCS-2 string block. */
UINT32 hb_ucs2_block(UINT8 *out, const char *text)
{
	UINT32 n = 0;

	out[n++] = EFI_HII_SIBT_STRING_UCS2;
	for (const char *c = text;; c++) {
		out[n++] = (UINT8)*c;
		out[n++] = 0;
		if (!*c)
			break;
	}
	return n;
}
