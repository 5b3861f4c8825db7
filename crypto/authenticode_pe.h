/* The places in a PE/COFF image Authenticode reads (PE/COFF specification 3 and 4), found by
 * crypto/authenticode_pe.c for the digest and the certificate table. */
#ifndef EMBER_CRYPTO_AUTHENTICODE_PE_H
#define EMBER_CRYPTO_AUTHENTICODE_PE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct authenticode_pe {
	size_t checksum;   /* offset of OptionalHeader.CheckSum */
	size_t cert_entry; /* offset of the certificate-table directory entry, or 0 */
	size_t size_of_headers;
	size_t sections; /* offset of the section table */
	uint16_t n_sections;
	uint32_t cert_offset; /* the certificate table (a file offset), 0 when none */
	uint32_t cert_size;
};

/* Finds the places in image (size bytes); false when the headers are malformed. */
bool authenticode_pe_parse(const uint8_t *image, size_t size, struct authenticode_pe *pe);
/* Little-endian reads inside the image (the caller checked the bounds). */
uint32_t authenticode_le32(const uint8_t *p);
uint16_t authenticode_le16(const uint8_t *p);

#endif
