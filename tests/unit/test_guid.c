/* GUIDs in registry format (lib/guid.c) and the table of named GUIDs (lib/guids.c). */
#include <string.h>

#include "support/test.h"
#include <ember/lib/guids.h>
#include <ember/lib/str.h>

TEST(guid_text_round_trip)
{
	EFI_GUID g, back;
	char text[37];

	EXPECT(guid_from_str(&g, "8BE4DF61-93CA-11d2-AA0D-00E098032B8C", 36));
	EXPECT_EQ(g.Data1, 0x8be4df61);
	EXPECT_EQ(g.Data4[7], 0x8c);
	guid_to_str(text, &g);
	EXPECT(guid_from_str(&back, text, 36));
	EXPECT(guid_eq(&g, &back));
	EXPECT(!guid_from_str(&g, "8BE4DF61-93CA-11d2-AA0D-00E098032B8", 35));
	EXPECT(!guid_from_str(&g, "8BE4DF61x93CA-11d2-AA0D-00E098032B8C", 36));
	EXPECT(!guid_from_str(&g, "8BE4DF61-93CA-11d2-AA0D-00E098032BXC", 36));
}

TEST(guid_text_refuses_bad_digits_anywhere)
{
	static const char *const bad[] = {
	    "8BE4DF61-93CX-11d2-AA0D-00E098032B8C", "8BE4DF61-93CA-11X2-AA0D-00E098032B8C",
	    "8BE4DF61-93CA-11d2-AX0D-00E098032B8C", "8BE4DF61-93CA-11d2-AA0D-00E0980 2B8C",
	    "8BE4DF61-93CA-11d2-AA0D+00E098032B8C",
	};
	EFI_GUID g;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		EXPECT(!guid_from_str(&g, bad[i], 36));
}

/* The one table: names and GUIDs both ways, case-insensitive names, unknown ones. */
TEST(guid_table_names)
{
	static const EFI_GUID unknown = {
	    0x01020304, 0x0506, 0x0708, {9, 10, 11, 12, 13, 14, 15, 16}};
	size_t count;
	const struct guid_name *all = guid_names(&count);

	EXPECT(count > 60);
	EXPECT(!strcmp(guid_name(&efi_block_io_protocol_guid), "BlockIo"));
	EXPECT(!strcmp(guid_name(&efi_global_variable_guid), "GlobalVariable"));
	EXPECT(guid_by_name("blockio") == &efi_block_io_protocol_guid);
	EXPECT(guid_by_name("BlockIoX") == NULL);
	EXPECT(guid_name(&unknown) == NULL);
	/* Every entry is found by its own name and GUID, and no two share either. */
	for (size_t i = 0; i < count; i++) {
		EXPECT(guid_by_name(all[i].name) == all[i].guid);
		EXPECT(!strcmp(guid_name(all[i].guid), all[i].name));
	}
}

/* guid_eq compares whole words: every one of the 16 bytes must count, at any alignment. */
TEST(guid_eq_sees_every_byte_at_any_alignment)
{
	unsigned char a[24], b[24];

	for (int i = 0; i < 24; i++)
		a[i] = b[i] = (unsigned char)(0x30 + i);
	for (int offset = 0; offset < 8; offset++) {
		const EFI_GUID *ga = (const EFI_GUID *)(a + offset);
		const EFI_GUID *gb = (const EFI_GUID *)(b + 7 - offset);
		EXPECT(guid_eq((const EFI_GUID *)(a + offset), (const EFI_GUID *)(b + offset)));
		EXPECT(!guid_eq(ga, gb)); /* the bytes differ at another offset */
		for (int byte = 0; byte < 16; byte++) {
			b[offset + byte] ^= 0x80;
			EXPECT(!guid_eq((const EFI_GUID *)(a + offset),
					(const EFI_GUID *)(b + offset)));
			b[offset + byte] ^= 0x80;
		}
	}
}
