/* Device path text from binary nodes of every known type and subtype, whatever their length
 * and bytes: the text (not display-only) always parses back to the same node (UEFI 2.10,
 * 10.6.1), and a node too short for its type's fields comes out in the generic form. The
 * deterministic sibling of tests/fuzz/fuzz_devpath_text.c. */
#include <stdio.h>
#include <string.h>

#include "support/test.h"
#include "devpath_text_check.h"
#include "../../core/devpath/devpath_internal.h"
#include <ember/core/core.h>
#include <ember/lib/str.h>

#define MAX_NODE 72

static const char *const generic_names[] = {
    [HARDWARE_DEVICE_PATH] = "HardwarePath(", [ACPI_DEVICE_PATH] = "AcpiPath(",
    [MESSAGING_DEVICE_PATH] = "Msg(",	      [MEDIA_DEVICE_PATH] = "MediaPath(",
    [BBS_DEVICE_PATH] = "BbsPath(",
};

static bool starts_with_ascii(const CHAR16 *text, const char *prefix)
{
	for (; *prefix; prefix++, text++)
		if (*text != (CHAR16)*prefix)
			return false;
	return true;
}

/* A node of this type, subtype and length, its body filled by pattern, then an End node. */
static UINT8 *make_node(UINT8 type, UINT8 subtype, UINTN len, int pattern)
{
	UINT8 *p = pool_alloc(len + DP_END_SIZE);

	if (!p)
		return NULL;
	p[0] = type, p[1] = subtype, p[2] = (UINT8)len, p[3] = (UINT8)(len >> 8);
	for (UINTN i = 4; i < len; i++)
		p[i] = pattern == 0 ? 0 : pattern == 1 ? 0xff : (UINT8)(i * 37 + 11);
	/* Pattern 3: UCS-2 letters with a terminator, as in a file path node. */
	for (UINTN i = 4; pattern == 3 && i < len; i++)
		p[i] = i + 2 >= len ? 0 : i % 2 ? 0 : (UINT8)('a' + i % 26);
	memcpy(p + len, (UINT8[]){END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, 4, 0},
	       DP_END_SIZE);
	return p;
}

/* Returns whether the node printed in its specific form; reports a failed round trip. */
static bool round_trips(UINT8 type, UINT8 subtype, UINTN len, int pattern, bool *specific)
{
	UINT8 *node = make_node(type, subtype, len, pattern);
	CHAR16 *text = node ? dp_to_text((EFI_DEVICE_PATH_PROTOCOL *)node, false, false) : NULL;
	CHAR16 *shown = node ? dp_to_text((EFI_DEVICE_PATH_PROTOCOL *)node, true, true) : NULL;
	EFI_DEVICE_PATH_PROTOCOL *back = text ? dp_from_text(text) : NULL;
	bool ok = back && shown && dp_size(back) == len + DP_END_SIZE &&
		  memcmp(back, node, len + DP_END_SIZE) == 0;

	*specific = text && !starts_with_ascii(text, generic_names[type]);
	if (!ok) {
		printf("    type %u subtype %u length %u pattern %d:\n", type, subtype,
		       (unsigned)len, pattern);
		dpt_print16("      text: ", text);
	}
	pool_free(back);
	pool_free(shown);
	pool_free(text);
	pool_free(node);
	return ok;
}

TEST(devpath_every_known_node_round_trips_at_any_length)
{
	static const struct dp_printer_entry *const tables[] = {dp_printers_hw, dp_printers_msg,
								dp_printers_net, dp_printers_media};
	unsigned failures = 0, printers = 0;

	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		for (const struct dp_printer_entry *e = tables[t]; e->print; e++) {
			bool seen_specific = false;
			printers++;
			for (UINTN len = 4; len <= MAX_NODE; len++)
				for (int pattern = 0; pattern < 4; pattern++) {
					bool specific;
					if (!round_trips(e->type, e->subtype, len, pattern,
							 &specific))
						failures++;
					/* A bare header has no fields to show (but Uri() has an
					 * empty URI). */
					if (len == 4 &&
					    !(e->type == MESSAGING_DEVICE_PATH &&
					      e->subtype == MSG_URI_DP) &&
					    !EXPECT(!specific))
						printf("    type %u subtype %u: header only\n",
						       e->type, e->subtype);
					seen_specific |= specific;
				}
			/* Every printer has some length and content it shows specifically. */
			if (!EXPECT(seen_specific))
				printf("    type %u subtype %u never printed specifically\n",
				       e->type, e->subtype);
		}
	EXPECT_EQ(failures, 0);
	EXPECT(printers > 40);
}
