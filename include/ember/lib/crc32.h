/* CRC-32 as used by UEFI tables, GPT and the variable store (IEEE 802.3, reflected). */
#ifndef EMBER_CRC32_H
#define EMBER_CRC32_H

#include <stddef.h>
#include <stdint.h>

uint32_t crc32_update(uint32_t crc, const void *data, size_t len);
static inline uint32_t crc32(const void *data, size_t len)
{
	return crc32_update(0, data, len);
}

#endif
