#define LOG_PREFIX "authenticode: "
/* The Authenticode digest of a PE/COFF image (Authenticode PE specification, "Calculating
 * the PE Image Hash"). */
#include "authenticode_pe.h"
#include <ember/core/log.h>
#include <ember/crypto/authenticode.h>

/* More sections than Windows loads (96) are refused: the sort below is quadratic. */
#define MAX_SECTIONS 96

struct section_span {
	uint32_t offset, size;
};

/* The sections with file data, sorted by PointerToRawData (ties in table order). */
static bool sections_in_file_order(const uint8_t *image, size_t size,
				   const struct authenticode_pe *pe, struct section_span *spans,
				   size_t *count)
{
	*count = 0;
	for (size_t i = 0; i < pe->n_sections; i++) {
		const uint8_t *header = image + pe->sections + 40 * i;
		struct section_span s = {authenticode_le32(header + 20),
					 authenticode_le32(header + 16)};
		size_t j;

		if (s.size == 0)
			continue;
		if (s.offset > size || s.size > size - s.offset) {
			log_debug("section %zu outside the image\n", i);
			return false;
		}
		for (j = *count; j > 0 && spans[j - 1].offset > s.offset; j--)
			spans[j] = spans[j - 1];
		spans[j] = s;
		(*count)++;
	}
	return true;
}

/* The headers minus CheckSum and the certificate-table entry. */
static void hash_headers(struct hash_ctx *ctx, const uint8_t *image,
			 const struct authenticode_pe *pe)
{
	hash_update(ctx, image, pe->checksum);
	if (pe->cert_entry) {
		hash_update(ctx, image + pe->checksum + 4, pe->cert_entry - (pe->checksum + 4));
		hash_update(ctx, image + pe->cert_entry + 8,
			    pe->size_of_headers - (pe->cert_entry + 8));
	} else {
		hash_update(ctx, image + pe->checksum + 4,
			    pe->size_of_headers - (pe->checksum + 4));
	}
}

EFI_STATUS authenticode_digest(const void *image, size_t size, enum hash_alg alg, uint8_t *digest)
{
	const uint8_t *bytes = image;
	struct section_span spans[MAX_SECTIONS];
	struct authenticode_pe pe;
	struct hash_ctx ctx;
	size_t count, hashed, end;

	if (!image || !authenticode_pe_parse(bytes, size, &pe))
		return EFI_INVALID_PARAMETER;
	if (pe.n_sections > MAX_SECTIONS) {
		log_debug("%u sections\n", pe.n_sections);
		return EFI_INVALID_PARAMETER;
	}
	if (!sections_in_file_order(bytes, size, &pe, spans, &count))
		return EFI_INVALID_PARAMETER;
	hash_init(&ctx, alg);
	hash_headers(&ctx, bytes, &pe);
	hashed = pe.size_of_headers;
	for (size_t i = 0; i < count; i++) {
		hash_update(&ctx, bytes + spans[i].offset, spans[i].size);
		hashed += spans[i].size;
	}
	/* What lies past the sections up to the certificate table, unpadded: OVMF counts the
	 * bytes hashed so far (headers and sections) and hashes the rest of the image but
	 * the table (UEFI 2.10 32.2.4 leaves unsigned images' trailing data open). */
	end = size - pe.cert_size;
	if (end > hashed)
		hash_update(&ctx, bytes + hashed, end - hashed);
	hash_final(&ctx, digest);
	return EFI_SUCCESS;
}
