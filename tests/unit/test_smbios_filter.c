/* The SMBIOS fields kept out of PCR 1 (platform/common/smbios_filter.c): serial
 * numbers, asset tags, the system UUID and wake-up type masked in structures laid out as
 * QEMU makes them, the other fields and strings left as they were, and tables whose
 * structures or strings run past their length refused. */
#include <string.h>

#include "support/test.h"
#include "../../platform/common/smbios_filter.h"

/* Type 1 (27 bytes): manufacturer "QEMU" (1), product "PC" (2), version 0, serial "S-1" (3),
 * a UUID, wake-up type 6 (power switch), then type 3 with serial "C-9" (2) and asset tag
 * "TAG" (3), type 0 with a vendor string, and the end-of-table structure. */
static const uint8_t tables[] = {
    1,	  27,	0x00, 0x01, 1,	  2,	0,    3,    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88,
    0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x10, 6,	  0,	0,    'Q',  'E',  'M',	'U',  0,
    'P',  'C',	0,    'S',  '-',  '1',	0,    0,    3,	  9,	0x00, 0x03, 1,	  1,	0,    2,
    3,	  'Q',	'E',  'M',  'U',  0,	'C',  '-',  '9',  0,	'T',  'A',  'G',  0,	0,    0,
    5,	  0x00, 0x00, 1,    'V',  0,	0,    127,  4,	  0xff, 0xfe, 0,    0,
};

TEST(smbios_filter_blanks_serials_uuid_and_wake_up)
{
	uint8_t t[sizeof(tables)], want[sizeof(tables)];

	memcpy(t, tables, sizeof(t));
	memcpy(want, tables, sizeof(want));
	memset(want + 8, 0, 16);	   /* UUID */
	want[24] = 0;			   /* wake-up type */
	memset(want + 27 + 8, '*', 3);	   /* "S-1" */
	memset(want + 40 + 9 + 5, '*', 3); /* "C-9" */
	memset(want + 40 + 9 + 9, '*', 3); /* "TAG" */
	ASSERT(smbios_filter(t, sizeof(t)));
	ASSERT(memcmp(t, want, sizeof(t)) == 0);
	/* The manufacturer, product and the vendor of type 0 stay. */
	ASSERT(memcmp(t + 27, "QEMU\0PC", 7) == 0);
	ASSERT(memcmp(t + 40 + 9, "QEMU", 4) == 0);
}

TEST(smbios_filter_refuses_structures_past_the_end)
{
	uint8_t t[sizeof(tables)];

	/* Cut inside type 1's strings, inside type 3's formatted area, and a length byte that
	 * points past the table. */
	memcpy(t, tables, sizeof(t));
	ASSERT(!smbios_filter(t, 30));
	memcpy(t, tables, sizeof(t));
	ASSERT(!smbios_filter(t, 45));
	memcpy(t, tables, sizeof(t));
	t[1] = 200;
	ASSERT(!smbios_filter(t, sizeof(t)));
	memcpy(t, tables, sizeof(t));
	t[1] = 3; /* shorter than a header */
	ASSERT(!smbios_filter(t, sizeof(t)));
}

TEST(smbios_filter_skips_fields_a_short_structure_lacks)
{
	/* A type 1 of SMBIOS 2.0 (8 bytes): a serial number, no UUID or wake-up type. */
	uint8_t t[] = {1, 8, 0, 0, 0, 0, 0, 1, 'S', 'N', 0, 0, 127, 4, 0, 0, 0, 0};

	ASSERT(smbios_filter(t, sizeof(t)));
	ASSERT(t[8] == '*' && t[9] == '*' && t[7] == 1);
	/* Without an end-of-table structure the table must end where its last one does. */
	ASSERT(smbios_filter(t, 12));
	ASSERT(!smbios_filter(t, 14));
}
