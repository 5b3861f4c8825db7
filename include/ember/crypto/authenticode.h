/* Authenticode (Microsoft's "Windows Authenticode Portable Executable Signature Format",
 * UEFI 2.10 32.2.4): the digest of a PE/COFF image, its certificate table and the digest
 * its signatures carry. Bounded by the image size given; refuse malformed images. */
#ifndef EMBER_CRYPTO_AUTHENTICODE_H
#define EMBER_CRYPTO_AUTHENTICODE_H

#include <efi/status.h>
#include <efi/types.h>
#include <ember/crypto/hash.h>
#include <ember/crypto/pkcs7.h>

/* The image digest of alg: headers without the checksum and the certificate-table entry,
 * sections in file order, then what follows them up to the certificate table (the bytes
 * after the last section of an unsigned image included, as OVMF hashes them).
 * EFI_INVALID_PARAMETER for a malformed image. */
EFI_STATUS authenticode_digest(const void *image, size_t size, enum hash_alg alg, uint8_t *digest);

/* A walk of an image's certificate table (WIN_CERTIFICATE entries, 8-byte aligned). */
struct authenticode_certs {
	const uint8_t *next;
	size_t left;
};

/* Starts the walk; EFI_NOT_FOUND when the image has no certificate table,
 * EFI_INVALID_PARAMETER when the image or its table's place is malformed. */
EFI_STATUS authenticode_certs_begin(const void *image, size_t size,
				    struct authenticode_certs *certs);
/* The next WIN_CERT_TYPE_PKCS_SIGNED_DATA entry's SignedData (other types are skipped):
 * EFI_SUCCESS, EFI_NOT_FOUND at the end, EFI_INVALID_PARAMETER for a malformed entry. */
EFI_STATUS authenticode_certs_next(struct authenticode_certs *certs, struct pkcs7_blob *p7);

/* The digest an Authenticode signature signs (SpcIndirectDataContent.messageDigest): its
 * algorithm and bytes (inside p7). EFI_INVALID_PARAMETER when p7 is no Authenticode
 * signature, EFI_UNSUPPORTED for an unknown digest algorithm. */
EFI_STATUS authenticode_signed_digest(struct pkcs7_blob p7, enum hash_alg *alg,
				      struct pkcs7_blob *digest);

#endif
