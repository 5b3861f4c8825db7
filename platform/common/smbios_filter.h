/* What of the SMBIOS structures handed to the OS may be measured (TCG PC Client PFP 3.3.4.2:
 * system-unique information such as serial numbers and asset tags, and values that change
 * by themselves, MUST NOT go into PCR 1). Pure logic over structures given with their
 * length: no memory outside them is read or written. */
#ifndef EMBER_SMBIOS_FILTER_H
#define EMBER_SMBIOS_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Blanks, in place, the unique and changing fields of the structures at table (size bytes,
 * a copy made for measuring): the UUID and wake-up type of type 1, and the serial number
 * and asset tag strings of types 1, 2, 3, 4 and 17. A string keeps its length, each of its
 * characters becomes '*'; a numeric field becomes zeros. Stops after the end-of-table
 * structure (type 127). False, with table partly blanked, when a structure or its strings
 * run past size: such a table is not measured. */
bool smbios_filter(uint8_t *table, size_t size);

#endif
