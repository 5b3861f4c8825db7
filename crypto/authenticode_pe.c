#define LOG_PREFIX "authenticode: "
/* The headers of a PE/COFF image as Authenticode needs them, every offset checked against
 * the image's size. */
#include "authenticode_pe.h"
#include <ember/core/log.h>

#define PE32_MAGIC 0x10B
#define PE32PLUS_MAGIC 0x20B
#define DIR_SECURITY 4 /* IMAGE_DIRECTORY_ENTRY_SECURITY: the certificate table */

uint32_t authenticode_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

uint16_t authenticode_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The offset of the PE signature: after a DOS header (e_lfanew), or at 0. */
static bool find_pe_header(const uint8_t *image, size_t size, size_t *pe)
{
	*pe = 0;
	if (size >= 0x40 && image[0] == 'M' && image[1] == 'Z')
		*pe = authenticode_le32(image + 0x3C);
	if (*pe > size || size - *pe < 24 || authenticode_le32(image + *pe) != 0x00004550) {
		log_debug("no PE signature\n");
		return false;
	}
	return true;
}

/* The optional header's data directories: the certificate table's entry and place. */
static bool read_directories(const uint8_t *image, size_t size, size_t opt, size_t opt_size,
			     uint16_t magic, struct authenticode_pe *pe)
{
	size_t count_at = opt + (magic == PE32_MAGIC ? 92 : 108), dirs = count_at + 4;
	uint32_t count;

	if (count_at + 4 > opt + opt_size)
		return false;
	count = authenticode_le32(image + count_at);
	if (count > (opt + opt_size - dirs) / 8)
		return false;
	pe->cert_entry = 0;
	pe->cert_offset = pe->cert_size = 0;
	if (count <= DIR_SECURITY)
		return true;
	pe->cert_entry = dirs + DIR_SECURITY * 8;
	pe->cert_offset = authenticode_le32(image + pe->cert_entry);
	pe->cert_size = authenticode_le32(image + pe->cert_entry + 4);
	if (pe->cert_size == 0)
		pe->cert_offset = 0;
	if (pe->cert_size &&
	    ((size_t)pe->cert_offset > size || (size_t)pe->cert_size > size - pe->cert_offset)) {
		log_debug("certificate table outside the image\n");
		return false;
	}
	return true;
}

bool authenticode_pe_parse(const uint8_t *image, size_t size, struct authenticode_pe *pe)
{
	size_t at, opt, opt_size;
	uint16_t magic;

	if (!find_pe_header(image, size, &at))
		return false;
	pe->n_sections = authenticode_le16(image + at + 6);
	opt_size = authenticode_le16(image + at + 20);
	opt = at + 24;
	if (opt_size < 2 || opt_size > size - opt) {
		log_debug("optional header outside the image\n");
		return false;
	}
	magic = authenticode_le16(image + opt);
	if ((magic != PE32_MAGIC && magic != PE32PLUS_MAGIC) || opt_size < 64 + 4)
		return false;
	pe->checksum = opt + 64;
	pe->size_of_headers = authenticode_le32(image + opt + 60);
	pe->sections = opt + opt_size;
	if (!read_directories(image, size, opt, opt_size, magic, pe))
		return false;
	if ((size_t)pe->n_sections * 40 > size - pe->sections || pe->size_of_headers > size ||
	    pe->size_of_headers < pe->checksum + 4 ||
	    (pe->cert_entry && pe->size_of_headers < pe->cert_entry + 8)) {
		log_debug("section table or SizeOfHeaders outside the image\n");
		return false;
	}
	return true;
}
