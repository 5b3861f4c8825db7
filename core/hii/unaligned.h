/* Little-endian fields of HII packages, read where they lie (packages and their blocks
 * are byte streams: nothing in them is aligned). One copy for the package checks, the
 * string-block walk and the IFR reader. */
#ifndef CORE_HII_UNALIGNED_H
#define CORE_HII_UNALIGNED_H

#include <efi/types.h>
#include <ember/lib/str.h>

static inline UINT16 read16(const UINT8 *p)
{
	UINT16 v;

	mem_copy(&v, p, sizeof(v));
	return v;
}

static inline UINT32 read32(const UINT8 *p)
{
	UINT32 v;

	mem_copy(&v, p, sizeof(v));
	return v;
}

#endif
