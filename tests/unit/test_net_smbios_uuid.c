/* The PXE client identifier from SMBIOS (net/smbios_uuid.c): the type 1 UUID found past
 * other structures and their strings, its byte order by version, and refusals. */
#include <string.h>

#include "support/test.h"
#include <ember/net/smbios_uuid.h>

/* Type 0 with one string, type 1 (27 bytes) with its UUID, then the end structure. */
static size_t table(uint8_t *t, const uint8_t *uuid)
{
	size_t n = 0;

	memcpy(t + n,
	       "\x00\x06\x00\x00\x01\x00"
	       "Ember\0\0",
	       13);
	n += 13;
	memset(t + n, 0, 27);
	t[n] = 1;
	t[n + 1] = 27;
	memcpy(t + n + 8, uuid, 16);
	n += 27;
	t[n++] = 0;
	t[n++] = 0;
	memcpy(t + n, "\x7f\x04\x00\x00\0\0", 6);
	return n + 6;
}

static const uint8_t smbios[16] = {0x33, 0x22, 0x11, 0x00, 0x55, 0x44, 0x77, 0x66,
				   0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};

TEST(net_smbios_uuid_found_and_ordered)
{
	static const uint8_t wire[16] = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77,
					 0x88, 0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff};
	uint8_t t[128], u[16];
	size_t n = table(t, smbios);

	ASSERT(smbios_system_uuid(t, n, true, u));
	EXPECT(!memcmp(u, wire, 16));
	/* Before SMBIOS 2.6 the bytes are taken as they are. */
	ASSERT(smbios_system_uuid(t, n, false, u));
	EXPECT(!memcmp(u, smbios, 16));
}

TEST(net_smbios_uuid_refusals)
{
	uint8_t t[128], u[16], zeros[16] = {0}, ones[16];
	size_t n = table(t, smbios);

	memset(ones, 0xff, 16);
	EXPECT(!smbios_system_uuid(NULL, n, true, u));
	/* Cut inside type 0's strings, and inside type 1. */
	EXPECT(!smbios_system_uuid(t, 12, true, u));
	EXPECT(!smbios_system_uuid(t, 13 + 20, true, u));
	n = table(t, zeros);
	EXPECT(!smbios_system_uuid(t, n, true, u));
	n = table(t, ones);
	EXPECT(!smbios_system_uuid(t, n, true, u));
	/* A structure length below its header, and one past the table. */
	n = table(t, smbios);
	t[1] = 3;
	EXPECT(!smbios_system_uuid(t, n, true, u));
	t[1] = 200;
	EXPECT(!smbios_system_uuid(t, n, true, u));
	/* Type 1 too short to hold a UUID (SMBIOS 2.0's 8 bytes). */
	t[1] = 6;
	t[14] = 8;
	EXPECT(!smbios_system_uuid(t, n, true, u));
	/* The end structure before any type 1. */
	t[13] = 127;
	t[14] = 27;
	EXPECT(!smbios_system_uuid(t, n, true, u));
}
