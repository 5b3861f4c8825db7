/* SMBIOS fields kept out of measurements (smbios_filter.h). Offsets are those of the
 * SMBIOS 3.x structures (DSP0134: System 1, Baseboard 2, Chassis 3, Processor 4, Memory
 * Device 17); a structure too short to hold a field does not have it. */
#include "smbios_filter.h"

#define END_OF_TABLE 127
#define HEADER_SIZE 4
#define MASK '*'

struct blanked {
	uint8_t type, offset, size; /* size 0: a string number at offset */
};

static const struct blanked fields[] = {
    {1, 0x07, 0},  /* serial number */
    {1, 0x08, 16}, /* UUID */
    {1, 0x18, 1},  /* wake-up type: how this boot began */
    {2, 0x07, 0},  /* serial number */
    {2, 0x08, 0},  /* asset tag */
    {3, 0x07, 0},  /* serial number */
    {3, 0x08, 0},  /* asset tag */
    {4, 0x20, 0},  /* serial number */
    {4, 0x21, 0},  /* asset tag */
    {17, 0x18, 0}, /* serial number */
    {17, 0x19, 0}, /* asset tag */
};

/* The end of the string set that starts at strings (two NULs, or one NUL right away when
 * the structure has no strings), or NULL when it runs past end. */
static uint8_t *strings_end(uint8_t *strings, const uint8_t *end)
{
	for (uint8_t *p = strings; p + 1 < end; p++)
		if (p[0] == 0 && p[1] == 0)
			return p + 2;
	return NULL;
}

/* Masks the characters of string number n (from 1) of the set at strings..end. Not with
 * zero bytes: those would end the string set early, and the copy would no longer parse. */
static void blank_string(uint8_t *strings, const uint8_t *end, uint8_t n)
{
	uint8_t *p = strings;

	for (uint8_t i = 1; n && p < end && *p; i++) {
		uint8_t *start = p;

		while (p < end && *p)
			p++;
		if (i == n) {
			for (; start < p; start++)
				*start = MASK;
			return;
		}
		p++;
	}
}

static void blank_fields(uint8_t *s, uint8_t length, uint8_t *strings, const uint8_t *end)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct blanked *f = &fields[i];

		if (f->type != s[0] || f->offset + (f->size ? f->size : 1) > length)
			continue;
		if (f->size) {
			for (uint8_t j = 0; j < f->size; j++)
				s[f->offset + j] = 0;
		} else {
			blank_string(strings, end, s[f->offset]);
		}
	}
}

bool smbios_filter(uint8_t *table, size_t size)
{
	uint8_t *p = table, *end = table + size;

	while ((size_t)(end - p) >= HEADER_SIZE) {
		uint8_t type = p[0], length = p[1];
		uint8_t *next;

		if (length < HEADER_SIZE || length > end - p)
			return false;
		next = strings_end(p + length, end);
		if (!next)
			return false;
		blank_fields(p, length, p + length, next);
		if (type == END_OF_TABLE)
			return true;
		p = next;
	}
	return p == end;
}
