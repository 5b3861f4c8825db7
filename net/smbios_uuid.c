/* The system UUID from SMBIOS's System Information structure (SMBIOS 3.x, 7.2), for the
 * PXE client machine identifier. */
#include <ember/lib/str.h>
#include <ember/net/smbios_uuid.h>

#define SMBIOS_TYPE_SYSTEM 1
#define SMBIOS_TYPE_END 127
#define SMBIOS_UUID_OFFSET 8

/* The offset of the structure after the one at at (its strings end with two NULs), or 0
 * when they run past the table. */
static size_t smbios_next(const uint8_t *t, size_t len, size_t at)
{
	size_t i = at + t[at + 1];

	for (; i + 1 < len; i++)
		if (!t[i] && !t[i + 1])
			return i + 2;
	return 0;
}

static bool smbios_uuid_set(const uint8_t *u)
{
	bool zeros = true, ones = true;

	for (int i = 0; i < 16; i++) {
		zeros &= u[i] == 0;
		ones &= u[i] == 0xff;
	}
	return !zeros && !ones;
}

bool smbios_system_uuid(const uint8_t *table, size_t len, bool version_2_6, uint8_t *uuid)
{
	size_t at = 0;

	while (table && len >= 4 && at <= len - 4) {
		uint8_t type = table[at], slen = table[at + 1];

		if (slen < 4 || slen > len - at)
			return false;
		if (type == SMBIOS_TYPE_SYSTEM && slen >= SMBIOS_UUID_OFFSET + 16) {
			const uint8_t *u = table + at + SMBIOS_UUID_OFFSET;
			if (!smbios_uuid_set(u))
				return false;
			mem_copy(uuid, u, 16);
			if (version_2_6) {
				/* time_low, time_mid, time_hi_and_version: little-endian there. */
				uint8_t f[8] = {u[3], u[2], u[1], u[0], u[5], u[4], u[7], u[6]};
				mem_copy(uuid, f, 8);
			}
			return true;
		}
		if (type == SMBIOS_TYPE_END)
			return false;
		at = smbios_next(table, len, at);
		if (!at)
			return false;
	}
	return false;
}
